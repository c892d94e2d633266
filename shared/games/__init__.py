"""The games. Each subpackage registers itself with ``shared.engine.registry`` on import."""
