package io.chronex.gateway;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.session.ResendIndex;
import io.chronex.gateway.session.SessionStateFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The backlog market data sees for a session (its slow-subscriber limit): messages stored and not yet handed to the socket,
 * never the batch still being built in the same pass, or a fast reader would flap between stale and a fresh W with the
 * size of a pass.
 */
class MarketDataLinkTest {
    @TempDir
    Path dir;

    @Test
    void theBacklogCountsStoredMessagesOnlyNotTheBatchBeingBuilt() {
        final SessionStateFile state = new SessionStateFile(dir.resolve("sessions.state"));
        final ResendIndex index = new ResendIndex(dir.resolve("resend.index"));
        try {
            final FixSession s = new FixSession(new GatewayConfig.Session("ALICE", null, 1, 7, false, 0, true), "CHRONEX", state, index);
            final MarketDataLink link = new MarketDataLink(List.of(s), null, null, null);
            assertEquals(0, link.backlog(0), "not connected");
            s.connection = new Connection(64, 64, null);
            s.nextToWrite = 11;
            // A pass of events has built 300 messages for it so far, none stored yet: none of them is behind.
            s.nextOutbound = 311;
            assertEquals(0, link.backlog(0));
            // The batch is stored, and 100 of its messages have gone to the socket.
            for (int seq = 11; seq < 311; seq++) {
                s.stored(seq);
            }
            s.nextToWrite = 111;
            assertEquals(200, link.backlog(0));
            s.nextToWrite = 311;
            assertEquals(0, link.backlog(0));
        } finally {
            index.close();
            state.close();
        }
    }
}
