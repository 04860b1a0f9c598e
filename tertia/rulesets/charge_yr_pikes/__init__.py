"""Charge yr Pikes! (Jackson Gamers, 5th edition 1986, revised 2003): regiments of figures
on stands grouped in tertias, brigade cards and a D10 command response by officer, fire
by stand, morale tests, falling back and routing, army morale, objectives and vital
points, a pursuit phase and a degree of victory."""

from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes

__all__ = ["ChargeYrPikes"]
