package sub // TODO(gen): generated, ignored
