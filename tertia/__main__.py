"""``python -m tertia`` runs the command line."""

from tertia.cli.main import app

app()
