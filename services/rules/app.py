"""The rules service: owns every match's event log (``create_app`` is the Flask factory)."""
from __future__ import annotations

from shared import metrics
from shared.config import Config, load
from shared.engine import registry
from shared import stream_handoff
from shared.held_streams import HeldStreams
from shared.web import create_base_app

from . import fast_moves
from .deadlines import DUE
from .followups import FOLLOWUPS
from .live import LiveLogs
from .migrations import migrate
from .analysis_routes import blp as analysis_blp
from .export_routes import blp as export_blp
from .index_routes import blp as index_blp, players_blp
from .routes import blp
from .runtime import Runtime
from .viewer import bp as viewer_bp
from .viewer.catalog_routes import blp as catalog_blp


def create_app(config: Config | None = None):
    config = config or load()
    rt = Runtime.build(config)
    migrate(rt.redis, tokens=True)
    app, api = create_base_app("rules", config, rt.redis)
    live = LiveLogs(config, block_s=min(config.sse_keepalive_s, 5.0))
    live.gate.install(app)  # watchers write between moves, not ahead of them
    app.extensions.update(matches=rt.matches, followups=rt.followups, deadlines=rt.deadlines, runtime=rt,
                          config=config, live=live,
                          held_streams=HeldStreams(rt.redis, "rules", per_player=config.max_streams_per_player,
                                                   per_address=config.max_streams_per_address,
                                                   recheck_s=config.stream_recheck_s))
    app.extensions["metrics"] += [metrics.BotQueue(rt.followups.queue.connection, config.bot_queue),
                                  metrics.AnalysisQueue(rt.followups.queue.connection),
                                  metrics.DueSets(rt.redis, {"followups": FOLLOWUPS, "deadlines": DUE})]
    stream_handoff.install(app, stream_handoff.Handoff(config.stream_handoff_socket))
    registry.load_all()
    api.register_blueprint(blp)
    api.register_blueprint(export_blp)
    api.register_blueprint(analysis_blp)
    api.register_blueprint(index_blp)
    api.register_blueprint(players_blp)
    api.register_blueprint(catalog_blp)
    app.register_blueprint(viewer_bp)
    fast_moves.install(app)  # a person's move answered without Flask's per-request machinery
    return app
