package io.chronex.gateway;

import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.marketdata.MarketDataService;
import io.chronex.queues.GatewaySessionsFile;

import java.util.List;

/**
 * Connects {@link MarketDataService} to the gateway: its messages are built in the {@link Outbox} like every other (stored
 * with their MsgSeqNum, then sent), sessions are numbered by their place in the gateway's list, and a session's backlog
 * is what {@link OutboundFlow} has not yet handed to its socket; each session's market-data counts go to the published
 * sessions file (gateways/N/sessions) for the monitor.
 */
final class MarketDataLink implements MarketDataService.Output, FixSession.MarketData {
    private final List<FixSession> sessions;
    private final Outbox outbox;
    private final Gateway.Log log;
    private final GatewaySessionsFile published;
    MarketDataService service;

    MarketDataLink(final List<FixSession> sessions, final Outbox outbox, final Gateway.Log log, final GatewaySessionsFile published) {
        this.sessions = sessions;
        this.outbox = outbox;
        this.log = log;
        this.published = published;
    }

    @Override
    public void counts(final int session, final int subscriptions, final boolean stale, final long staleEpisodes, final long snapshots,
                       final long incrementals) {
        published.marketData(session, subscriptions, stale, staleEpisodes, snapshots, incrementals);
    }

    @Override
    public void onRequest(final FixSession session, final FixDecoder message) {
        service.onRequest(session.publishedSlot, message);
    }

    @Override
    public void gapFilled(final FixSession session) {
        service.resync(session.publishedSlot);
    }

    @Override
    public FixEncoder begin(final int session, final int msgType) {
        return outbox.begin(sessions.get(session), msgType, System.currentTimeMillis());
    }

    @Override
    public void end() {
        outbox.end(0, 0);
    }

    @Override
    public void commit() {
        outbox.commit(-1);
    }

    @Override
    public int backlog(final int session) {
        final FixSession s = sessions.get(session);
        // Stored and not yet written: the batch being built (up to a pass of events) is not behind yet, so a fast reader does
        // not flap between stale and a fresh W with the size of a pass.
        return s.connection == null ? 0 : Math.max(0, s.nextStored - s.nextToWrite);
    }

    @Override
    public boolean caughtUp(final int session) {
        final FixSession s = sessions.get(session);
        final Connection c = s.connection;
        return c == null || (s.nextOutbound == s.nextToWrite && c.pending.position() == 0);
    }

    @Override
    public String name(final int session) {
        return sessions.get(session).name;
    }

    @Override
    public void log(final String line) {
        log.log(line);
    }
}
