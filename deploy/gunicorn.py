"""Gunicorn settings shared by the three services (flags on the command line add to these).

The rules service runs gevent workers (``-k gevent`` in the Procfile): its SSE streams are idle
most of the time, and a greenlet per stream costs a few kilobytes where a thread per stream
capped the watchers at the thread count. The other services keep threads.
"""
worker_class = "gthread"
workers = 1
threads = 4
worker_connections = 4000   # gevent workers: concurrent connections (SSE watchers) per process
timeout = 120               # a worker whose request blocks longer is restarted
graceful_timeout = 5
keepalive = 5
limit_request_line = 8190   # gunicorn's maximum; Flask answers 414 problem+json above 4096 bytes
accesslog = None
errorlog = "-"
loglevel = "warning"
