"""Hooksmith's Python host: runs hook code for the editor and the CLI (see hooksmith_host.py)."""
