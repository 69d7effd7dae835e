"""Calibration: ArUco markers, homography and zones, colour profile, card teaching.

Writes the config files that vision/ reads (DESIGN.md §2).
"""
