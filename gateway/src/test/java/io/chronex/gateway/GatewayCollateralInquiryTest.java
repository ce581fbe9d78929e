package io.chronex.gateway;

import io.chronex.replay.Admin;
import io.chronex.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.Side;
import quickfix.field.TimeInForce;
import quickfix.fix44.CollateralInquiry;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.chronex.gateway.GatewayLifecycleTest.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client asks its balances over FIX, with real processes and a QuickFIX/J client validating with its FIX 4.4
 * dictionary, on the shipped configuration (USD in cents, ACME and GLOBEX in shares, 1 cent a share to the taker):
 * after a deposit and a bid that holds part of it, a CollateralInquiry for USD and one for every asset are answered
 * with a CollateralReport per asset (available, held, their sum; TotNumReports, LastRptRequested on the last), and
 * an unknown Currency, another account's Account, or an account the engine does not know with a rejected
 * CollateralInquiryAck.
 */
class GatewayCollateralInquiryTest {
    private static final String SESSIONS = """
          - {senderCompId: ALICE, account: 1}
          - {senderCompId: CAROL, account: 9, unlistedAccount: true}
        """;

    @TempDir
    Path tmp;

    @Test
    void balancesAreReportedPerAssetAndBadInquiriesRefused() throws Exception {
        try (Exchange exchange = new Exchange(tmp, SESSIONS); ChildJvm jvms = new ChildJvm()) {
            // No demo funding: the balances are the test's own deposits.
            exchange.funded = true;
            exchange.startEngine();
            exchange.startGateway();
            try (QfjClient alice = new QfjClient("ALICE", null, exchange.port, true);
                 QfjClient carol = new QfjClient("CAROL", null, exchange.port, true)) {
                alice.awaitLogon();
                carol.awaitLogon();
                deposit(jvms, exchange, "1", "USD", "1000.10", "1");
                deposit(jvms, exchange, "1", "ACME", "7", "2");
                // 5 x (100.00 + 0.01 taker fee) held while it rests.
                alice.send(order("A1", Side.BUY, "ACME", "5", "100.00", TimeInForce.GOOD_TILL_CANCEL));
                final Message placed = alice.next();
                assertEquals(ExecType.NEW, placed.getChar(ExecType.FIELD), placed.toString());

                alice.send(inquiry("Q1", "USD", null));
                final Message usd = alice.next();
                assertReport(usd, "Q1", "USD", "500.05", "500.05", "1000.10", 1, true);

                alice.send(inquiry("Q2", null, "1"));
                final Message first = alice.next();
                final Message second = alice.next();
                final Message third = alice.next();
                assertReport(first, "Q2", "USD", "500.05", "500.05", "1000.10", 3, false);
                assertReport(second, "Q2", "ACME", "7", "0", "7", 3, false);
                assertReport(third, "Q2", "GLOBEX", "0", "0", "0", 3, true);
                final Set<String> ids = new HashSet<>();
                for (final Message m : List.of(usd, first, second, third)) {
                    ids.add(m.getString(908));
                }
                assertEquals(4, ids.size(), "every CollRptID is its own: " + ids);

                alice.send(inquiry("Q3", "EUR", null));
                assertRefused(alice.next(), "Q3", "unknown Currency EUR (assets: USD, ACME, GLOBEX)");
                alice.send(inquiry("Q4", "USD", "2"));
                assertRefused(alice.next(), "Q4", "Account 2 is not this session's account (1)");

                // The refusals took nothing from the journal's order: a question after them is answered as before.
                alice.send(inquiry("Q5", "ACME", null));
                assertReport(alice.next(), "Q5", "ACME", "7", "0", "7", 1, true);
                assertFalse(alice.events.stream().anyMatch(e -> e.startsWith("sent Reject")),
                    "QuickFIX/J refused something the gateway sent: " + alice.events);

                // Account 9 is not in the running engine's configuration (and none is created on first use): it refuses the BALANCE.
                carol.send(inquiry("Q6", "USD", null));
                final Message unknown = carol.next();
                assertRefused(unknown, "Q6", "UNKNOWN_ACCOUNT");
                assertEquals("USD", unknown.getString(15), unknown.toString());
                assertEquals(1, unknown.getInt(911), unknown.toString());
                assertFalse(carol.events.stream().anyMatch(e -> e.startsWith("sent Reject")),
                    "QuickFIX/J refused something the gateway sent: " + carol.events);
            }
        }
    }

    private static CollateralInquiry inquiry(final String id, final String currency, final String account) {
        final CollateralInquiry m = new CollateralInquiry();
        m.setString(909, id);
        if (currency != null) {
            m.setString(15, currency);
        }
        if (account != null) {
            m.setString(1, account);
        }
        return m;
    }

    private static void assertReport(final Message m, final String inquiryId, final String currency, final String available,
                                     final String held, final String total, final int reports, final boolean last) throws Exception {
        assertEquals(MsgType.COLLATERAL_REPORT, m.getHeader().getString(MsgType.FIELD), m.toString());
        assertEquals(inquiryId, m.getString(909), m.toString());
        assertEquals(3, m.getInt(910), "CollStatus assigned: " + m);
        assertEquals("1", m.getString(1), m.toString());
        assertEquals(currency, m.getString(15), m.toString());
        assertEquals(available, m.getString(899), "MarginExcess (available): " + m);
        assertEquals(held, m.getString(901), "CashOutstanding (held by open orders): " + m);
        assertEquals(total, m.getString(900), "TotalNetValue: " + m);
        assertEquals(reports, m.getInt(911), "TotNumReports: " + m);
        assertEquals(last, m.getBoolean(912), "LastRptRequested: " + m);
    }

    private static void assertRefused(final Message m, final String inquiryId, final String text) throws Exception {
        assertEquals(MsgType.COLLATERAL_INQUIRY_ACK, m.getHeader().getString(MsgType.FIELD), m.toString());
        assertEquals(inquiryId, m.getString(909), m.toString());
        assertEquals(4, m.getInt(945), "CollInquiryStatus rejected: " + m);
        assertEquals(99, m.getInt(946), "CollInquiryResult other: " + m);
        assertEquals(text, m.getString(58));
    }

    /** bin/admin deposit in a JVM of its own, as an operator funds an account. */
    private void deposit(final ChildJvm jvms, final Exchange exchange, final String account, final String asset, final String amount,
                         final String reference) throws Exception {
        final Path log = tmp.resolve("admin-" + reference + ".out");
        final List<String> args = new ArrayList<>(List.of("--data-dir", exchange.data.toString(), "--config",
            exchange.dir.resolve("engine.yaml").toString(), "--timeout", "60s", "deposit", account, asset, amount, "--ref", reference));
        final Process p = jvms.start(Admin.class.getName(), args, log);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/admin did not end");
        final String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("accepted: DEPOSIT")), out);
    }
}
