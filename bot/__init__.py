"""The application: settings, start-up, the SQLite store and the table service."""
