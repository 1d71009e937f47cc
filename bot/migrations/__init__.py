"""Numbered SQL migrations, one folder per dialect (sqlite, postgres); see bot.store.schema."""
