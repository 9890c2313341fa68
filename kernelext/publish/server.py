"""The Jupyter server side: on every notebook save from JupyterLab or Notebook 7, drop the widget views
that could not be drawn when the notebook is opened again (see kernelext.publish.handout)."""

from __future__ import annotations

from kernelext.publish.handout import drop_dead_widget_views


def drop_dead_widget_views_before_save(model: dict, **_kwargs) -> None:
    """A contents manager pre-save hook: `model` is what the front end saves."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        drop_dead_widget_views(model["content"])


def _load_jupyter_server_extension(serverapp) -> None:
    serverapp.contents_manager.register_pre_save_hook(drop_dead_widget_views_before_save)
