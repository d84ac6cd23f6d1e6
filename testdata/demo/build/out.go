// TODO: generated output, ignored by .gitignore
