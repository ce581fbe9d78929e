package io.chronex.gateway;

import io.chronex.queues.DataDirectory;
import io.chronex.replay.JournalSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A session's throttle (throttlePerSecond in the gateway file): a burst beyond it is refused message by message with the
 * answer FIX has for each request, nothing of it journalled, and the session goes on.
 */
class GatewayThrottleTest {
    @TempDir
    Path tmp;

    @Test
    void ordersBeyondTheSessionsLimitAreRefusedAndTheRestGoIn() throws Exception {
        try (Exchange exchange = new Exchange(tmp, "  - {senderCompId: BURST, account: 1, throttlePerSecond: 1}\n")) {
            exchange.startEngine();
            exchange.startGateway();
            try (FixText client = FixText.logOn(exchange.port, "BURST")) {
                // Three orders in one write: read in one pass, at one read time, so one second holds all three.
                final ByteArrayOutputStream burst = new ByteArrayOutputStream();
                for (int i = 1; i <= 3; i++) {
                    burst.write(FixText.whole(client.body("D", "11=t" + i + "\u000155=ACME\u000154=1\u000138=1\u000140=2"
                        + "\u000144=99.00\u000159=1\u000160=20261123-10:00:00\u0001")));
                }
                client.sendRaw(burst.toByteArray());
                final List<String> answers = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    final FixText.Fields m = client.expect("8");
                    answers.add(m.get(11) + " " + m.get(39) + (m.get(58) == null ? "" : " " + m.get(58)));
                }
                answers.sort(null);
                final String refused = " 8 throttled: more than 1 messages a second";
                assertEquals(List.of("t1 0", "t2" + refused, "t3" + refused), answers);
                assertEquals(Exchange.FUNDING_COMMANDS + 1, JournalSummary.summarize(DataDirectory.open(exchange.data)).commands(),
                    "the deposits and t1 journalled, nothing of t2 and t3");
            }
        }
    }
}
