"""Play in the browser: an HTTP API over the engine, saved games in SQLite, and a page.

``create_app(db_path)`` in :mod:`tertia.web.app` builds the FastAPI application;
``tertia serve`` runs it with uvicorn.
"""
