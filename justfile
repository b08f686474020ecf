# Short names for the project's commands (see README.md).

# Build the dashboard, create demo accounts on a new database, and serve on http://127.0.0.1:8080
run:
    cargo xtask run

# Every check and test, as CI runs them
test:
    cargo xtask test

# Regenerate openapi/openapi.json, the dashboard's typed client and the widget's configuration types
openapi:
    cargo xtask openapi
