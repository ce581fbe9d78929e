package io.chronex.gateway;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.queues.CommandCodec;
import io.chronex.queues.DataDirectory;
import io.chronex.queues.DecodeStatus;
import io.chronex.queues.Hops;
import io.chronex.replay.Admin;
import io.chronex.testing.ChildJvm;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/admin end to end with real processes (engine, gateway, the admin tool each a JVM of its own, a
 * raw FIX client): a halt makes new ACME orders rejected as halted over FIX, a resume lets them in
 * again, both are in the journal as operator commands; a kill switch reports the account's resting
 * order Canceled to its session.
 */
class GatewayAdminTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, account: 1}
        """;

    @TempDir
    Path tmp;

    private int runs;

    @Test
    void haltRejectsNewOrdersOverFixAndResumeLetsThemInAgain() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS); RawFixClient alice = new RawFixClient("ALICE");
             ChildJvm jvms = new ChildJvm()) {
            exchange.startEngine();
            exchange.startGateway();
            alice.connect(exchange.port, 0);
            alice.logOn(true);
            assertEquals("0", order(alice, "A1").get(150));

            assertEquals("accepted: HALT symbol 1", admin(jvms, exchange, 0, "halt", "ACME"));
            final RawFixClient.Msg rejected = order(alice, "A2");
            assertEquals("8", rejected.get(150), rejected.toString());
            assertEquals("8", rejected.get(39), rejected.toString());
            assertEquals("2", rejected.get(103), rejected.toString());
            assertTrue(rejected.get(58).toUpperCase(java.util.Locale.ROOT).contains("HALTED"), rejected.toString());

            assertEquals("accepted: RESUME symbol 1", admin(jvms, exchange, 0, "resume", "ACME"));
            assertEquals("0", order(alice, "A3").get(150));
        }
        final List<Command> operator = new ArrayList<>();
        try (SingleChronicleQueue commands = DataDirectory.open(tmp.resolve("data")).commands()) {
            final ExcerptTailer tailer = commands.createTailer();
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    final Command c = new Command();
                    final Hops hops = new Hops();
                    if (io.chronex.queues.ConfigRecord.is(dc.wire().bytes(), dc.wire().bytes().readPosition(),
                        dc.wire().bytes().readRemaining())) {
                        continue; // the engine's configuration record, not a command
                    }
                    assertEquals(DecodeStatus.OK, CommandCodec.read(dc.wire().bytes(), c, hops));
                    if (hops.gatewayId == 0) {
                        operator.add(c);
                    }
                }
            }
        }
        // The funding's deposits (journalled as operator commands before the engine started), then the two sent with bin/admin.
        final List<CommandType> expected = new ArrayList<>(java.util.Collections.nCopies(Exchange.FUNDING_COMMANDS, CommandType.DEPOSIT));
        expected.addAll(List.of(CommandType.HALT, CommandType.RESUME));
        assertEquals(expected, operator.stream().map(c -> c.type).toList());
    }

    @Test
    void theKillSwitchCancelsTheAccountsRestingOrdersOverFix() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS); RawFixClient alice = new RawFixClient("ALICE");
             ChildJvm jvms = new ChildJvm()) {
            exchange.startEngine();
            exchange.startGateway();
            alice.connect(exchange.port, 0);
            alice.logOn(true);
            assertEquals("0", order(alice, "K1").get(150));
            assertEquals("accepted: KILL_SWITCH_ON account 1, 1 orders cancelled", admin(jvms, exchange, 0, "kill-switch", "1", "on"));
            final RawFixClient.Msg cancelled = alice.expect("8");
            assertEquals("4", cancelled.get(150), cancelled.toString());
            assertEquals("4", cancelled.get(39), cancelled.toString());
            assertTrue("K1".equals(cancelled.get(11)) || "K1".equals(cancelled.get(41)), cancelled.toString());
            // Blocked until lifted.
            assertEquals("8", order(alice, "K2").get(150));
            assertEquals("accepted: KILL_SWITCH_OFF account 1", admin(jvms, exchange, 0, "kill-switch", "1", "off"));
            assertEquals("0", order(alice, "K3").get(150));
        }
    }

    /** A resting GTC buy of 1 ACME at 95.00; returns its first ExecutionReport. */
    private static RawFixClient.Msg order(final RawFixClient client, final String clOrdId) throws IOException {
        client.send("D", "11=" + clOrdId + "\u000155=ACME\u000154=1\u000138=1\u000140=2\u000144=95.00\u000159=1\u0001"
            + "60=20261123-10:00:00\u0001");
        client.flush();
        return client.expect("8");
    }

    /** Runs bin/admin's main in a JVM of its own; asserts its exit code and returns its first output line. */
    private String admin(final ChildJvm jvms, final Exchange exchange, final int exit, final String... command) throws Exception {
        final Path log = tmp.resolve("admin-" + (++runs) + ".out");
        final List<String> args = new ArrayList<>(List.of("--data-dir", exchange.data.toString(), "--config",
            exchange.dir.resolve("engine.yaml").toString(), "--timeout", "60s"));
        args.addAll(List.of(command));
        final Process p = jvms.start(Admin.class.getName(), args, log);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/admin did not end");
        final String out = Files.readString(log);
        assertEquals(exit, p.exitValue(), out);
        // The journal index at the end varies; the rest is the answer.
        return out.lines().filter(l -> l.startsWith("accepted") || l.startsWith("refused")).findFirst().orElse(out)
            .replaceAll(" \\(journal index [0-9a-f]+\\)$", "");
    }
}
