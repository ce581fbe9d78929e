package io.chronex.gateway;

import io.chronex.replay.Admin;
import io.chronex.replay.audit.Audit;
import io.chronex.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ExecType;
import quickfix.field.OrdRejReason;
import quickfix.field.OrdStatus;
import quickfix.field.Side;
import quickfix.field.Text;
import quickfix.field.TimeInForce;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.chronex.gateway.GatewayLifecycleTest.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Money over FIX with real processes and QuickFIX/J clients on the shipped configuration (ACME paid in USD
 * cents, 1 cent a share to the taker): an order the account cannot pay for is rejected with OrdRejReason 3
 * and a Text naming what it needed and what there was; after bin/admin deposit the same order is accepted;
 * after the trade bin/audit balances shows both sides moved by price x quantity and the fee.
 */
class GatewayFundsTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, account: 1}
          - {senderCompId: BOB, account: 2}
        """;

    @TempDir
    Path tmp;

    private int runs;

    @Test
    void anUnfundedOrderIsRejectedWithTheReasonAndADepositLetsItIn() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS); ChildJvm jvms = new ChildJvm()) {
            // No demo funding: the accounts start with nothing.
            exchange.funded = true;
            exchange.startEngine();
            exchange.startGateway();
            try (QfjClient alice = new QfjClient("ALICE", null, exchange.port, true);
                 QfjClient bob = new QfjClient("BOB", null, exchange.port, true)) {
                alice.awaitLogon();
                bob.awaitLogon();
                alice.send(order("A1", Side.BUY, "ACME", "10", "100.00", TimeInForce.GOOD_TILL_CANCEL));
                final Message rejected = alice.next();
                assertEquals(ExecType.REJECTED, rejected.getChar(ExecType.FIELD), rejected.toString());
                assertEquals(OrdStatus.REJECTED, rejected.getChar(OrdStatus.FIELD), rejected.toString());
                assertEquals(OrdRejReason.ORDER_EXCEEDS_LIMIT, rejected.getInt(OrdRejReason.FIELD), rejected.toString());
                // 10 x (100.00 + 0.01 taker fee): what a bid holds.
                assertEquals("INSUFFICIENT_FUNDS: needs 1000.10 USD, available 0.00 USD", rejected.getString(Text.FIELD));

                assertEquals("accepted: DEPOSIT account 1 1000.10 USD (ref 1), available 1000.10 USD, held 0.00 USD",
                    admin(jvms, exchange, "deposit", "1", "USD", "1000.10", "--ref", "1"));
                assertEquals("accepted: DEPOSIT account 2 10 ACME (ref 2), available 10 ACME, held 0 ACME",
                    admin(jvms, exchange, "deposit", "2", "ACME", "10", "--ref", "2"));

                alice.send(order("A2", Side.BUY, "ACME", "10", "100.00", TimeInForce.GOOD_TILL_CANCEL));
                final Message accepted = alice.next();
                assertEquals(ExecType.NEW, accepted.getChar(ExecType.FIELD), accepted.toString());

                bob.send(order("B1", Side.SELL, "ACME", "10", "100.00", TimeInForce.IMMEDIATE_OR_CANCEL));
                final Message bobNew = bob.next();
                assertEquals(ExecType.NEW, bobNew.getChar(ExecType.FIELD), bobNew.toString());
                final Message bobFill = bob.next();
                assertEquals(ExecType.TRADE, bobFill.getChar(ExecType.FIELD), bobFill.toString());
                final Message aliceFill = alice.next();
                assertEquals(OrdStatus.FILLED, aliceFill.getChar(OrdStatus.FIELD), aliceFill.toString());
            }
        }
        // ALICE rested (maker, no fee): paid 1000.00 of the 1000.10 held, the taker-fee reserve comes back.
        assertEquals(List.of("RESULT account=1 asset=USD available=0.10 held=0.00", "RESULT account=1 asset=ACME available=10 held=0",
            "RESULT account=1 asset=GLOBEX available=0 held=0"), balances(1));
        // BOB took: 1000.00 less 10 x 0.01.
        assertEquals(List.of("RESULT account=2 asset=USD available=999.90 held=0.00", "RESULT account=2 asset=ACME available=0 held=0",
            "RESULT account=2 asset=GLOBEX available=0 held=0"), balances(2));
        // The export has the cash movements as records of their own: asset, amount and the balance after, reference as ClOrdID.
        final List<String> deposits = audit("export", "--format", "csv").stream().filter(l -> l.contains(",DEPOSIT,")).toList();
        assertEquals(2, deposits.size(), deposits.toString());
        assertTrue(deposits.get(0).contains(",cash,DEPOSIT,0,1,,1,") && deposits.get(0).endsWith(",USD,1000.10,1000.10,0.00"),
            deposits.get(0));
        assertTrue(deposits.get(1).endsWith(",ACME,10,10,0"), deposits.get(1));
    }

    private List<String> audit(final String... argv) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<String> args = new ArrayList<>(List.of(argv));
        args.addAll(List.of("--data-dir", tmp.resolve("data").toString(), "--config", tmp.resolve("engine.yaml").toString()));
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Audit.exitCode(args.toArray(new String[0]), out);
        }
        assertEquals(0, exit, bytes.toString(StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private List<String> balances(final long account) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Audit.exitCode(new String[] {"balances", Long.toString(account), "--data-dir", tmp.resolve("data").toString(),
                "--config", tmp.resolve("engine.yaml").toString()}, out);
        }
        final String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, output);
        return output.lines().filter(l -> l.startsWith("RESULT")).toList();
    }

    /** Runs bin/admin's main in a JVM of its own; asserts it exits 0 and returns its answer without the journal index. */
    private String admin(final ChildJvm jvms, final Exchange exchange, final String... command) throws Exception {
        final Path log = tmp.resolve("admin-" + (++runs) + ".out");
        final List<String> args = new ArrayList<>(List.of("--data-dir", exchange.data.toString(), "--config",
            exchange.dir.resolve("engine.yaml").toString(), "--timeout", "60s"));
        args.addAll(List.of(command));
        final Process p = jvms.start(Admin.class.getName(), args, log);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/admin did not end");
        final String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);
        return out.lines().filter(l -> l.startsWith("accepted") || l.startsWith("refused")).findFirst().orElse(out)
            .replaceAll(" \\(journal index [0-9a-f]+\\)$", "");
    }
}
