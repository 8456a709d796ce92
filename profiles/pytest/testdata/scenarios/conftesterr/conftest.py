import ctx_missing_plugin_module  # noqa: F401
