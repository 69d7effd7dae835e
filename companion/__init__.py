"""Space Mission table companion: the core (box data, rules, scoring, journal, command).

Imports no camera or screen code (DESIGN.md §2).
"""
