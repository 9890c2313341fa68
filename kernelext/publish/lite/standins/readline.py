"""readline, which pycsp3's inspector imports and a browser's Python lacks: nothing to read lines from."""


def get_current_history_length():
    return 0


def get_history_item(_index):
    return None
