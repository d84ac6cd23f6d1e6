package build // TODO: generated output, ignored by .gitignore
