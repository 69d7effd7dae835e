"""The Kivy touchscreen app: one .py + .kv pair per screen (DESIGN.md §2)."""
