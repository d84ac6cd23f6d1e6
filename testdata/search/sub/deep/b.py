def handler(event):
    # TODO(py): handle errors
    if not event:
        raise ValueError("empty event")
    return {"ok": True, "error": None}
