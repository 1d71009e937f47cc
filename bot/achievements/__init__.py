"""Achievements: earned once per person, from the moments and figures of recorded matches."""
