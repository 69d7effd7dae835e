"""Camera side: frame sources, table rectification, card and sticker readers, debouncing.

Depends on companion/ (observation types), never on ui/ or kivy (DESIGN.md §2).
"""
