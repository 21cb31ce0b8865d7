"""Development-only tools: benchmarks, a made-up history for measuring pages at scale, and bot
tournaments. Installed in the local and test settings only, never in production, and left out of
the installed package (pyproject.toml); the site never imports it (import-linter holds that)."""
