"""What the two D3 rule sets share (``d3-commands`` and ``d3-cards``, both by the same
author and both variants of One-Hour Wargames' Pike and Shot rules).

Both roll a D3 marked 1,1,2,2,3,3 for hits; fight one-sided melees in the active side's
activation; accumulate hits until a unit routs on exceeding eight; know the same troop
types, movement allowances, terrain and weather. The blocks here take the rule set's own
numbers and clause names; each rule set keeps what differs (shooting, ammunition,
melee modifiers, commanders, activation) in its own package.
"""
