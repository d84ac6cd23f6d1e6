package sub // TODO(keep): negated, kept
