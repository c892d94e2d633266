"""Gunicorn settings shared by the three services (flags on the command line add to these)."""
worker_class = "gthread"
workers = 1
threads = 4
timeout = 120          # the SSE stream and table creation hold a thread; keep-alives keep it busy
graceful_timeout = 5
keepalive = 5
accesslog = None
errorlog = "-"
loglevel = "warning"
