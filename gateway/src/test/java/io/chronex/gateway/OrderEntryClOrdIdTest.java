package io.chronex.gateway;

import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.core.Instruments;
import io.chronex.gateway.core.OrderEntry;
import io.chronex.gateway.core.OrderRequest;
import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.gateway.fix.FixDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OrderEntry and ClOrdIDs: texts carried into the command, the rule, claims, and hash collisions refused rather than misreported. */
class OrderEntryClOrdIdTest {
    private static final long ACCOUNT = 7;
    private static final String UUID_ID = "123e4567-e89b-12d3-a456-426614174000";

    @TempDir
    Path tmp;
    private ClOrdIdTable table;
    private OrderEntry entry;
    private final FixDecoder decoder = new FixDecoder();
    private final Command command = new Command();
    private final FixOrderRequests requests = new FixOrderRequests();
    private final OrderRequest request = new OrderRequest();

    private OrderEntry entry() {
        if (entry == null) {
            table = new ClOrdIdTable(tmp.resolve("clordids.table"));
            entry = new OrderEntry(new Instruments(List.of(new GatewayConfig.Symbol(1, "ACME", 2, 1, 1)), List.of()), table,
                FixOrderRequests.NAMES);
        }
        return entry;
    }

    @AfterEach
    void close() {
        if (table != null) {
            table.close();
        }
    }

    private OrderEntry.Outcome translate(final String msgType, final String fields) {
        final byte[] bytes = FixText.whole("35=" + msgType + "\u000149=C\u000156=CHRONEX\u000134=2\u000152=20261122-10:00:00.000\u0001"
            + fields);
        assertEquals(FixDecoder.OK, decoder.decode(new UnsafeBuffer(bytes), 0, bytes.length));
        assertTrue(requests.read(decoder, decoder.msgType(), request), "required tags there");
        return entry().translate(request, ACCOUNT, command);
    }

    private OrderEntry.Outcome newOrder(final String id) {
        return translate("D", "11=" + id + "\u000155=ACME\u000154=1\u000160=20261122-10:00:00\u000138=5\u000140=2\u000144=100.00\u0001");
    }

    private OrderEntry.Outcome cancel(final String id, final String orig) {
        return translate("F", "41=" + orig + "\u000111=" + id + "\u000155=ACME\u000154=1\u000160=20261122-10:00:00\u0001");
    }

    private OrderEntry.Outcome replace(final String id, final String orig) {
        return translate("G", "41=" + orig + "\u000111=" + id + "\u000155=ACME\u000154=1\u000160=20261122-10:00:00\u000138=6\u0001"
            + "40=2\u000144=100.00\u0001");
    }

    private String tableText(final long id) {
        final byte[] out = new byte[64];
        return new String(out, 0, table.text(ACCOUNT, id, out), StandardCharsets.US_ASCII);
    }

    @Test
    void aNewOrderCarriesItsTextAndHashAndClaimsIt() {
        assertEquals(OrderEntry.Outcome.COMMAND, newOrder(UUID_ID));
        assertEquals(CommandType.NEW_ORDER, command.type);
        assertEquals(ClientOrderIds.hash(UUID_ID), command.clientOrderId);
        assertEquals(UUID_ID, entry.ids.clientOrderIdText());
        assertEquals("", entry.ids.newClientOrderIdText());
        assertEquals(UUID_ID, tableText(command.clientOrderId));
    }

    @Test
    void cancelAndReplaceCarryBothTextsAndAReplaceClaimsOnlyANewText() {
        assertEquals(OrderEntry.Outcome.COMMAND, cancel("cxl-1", "Run42-A1"));
        assertEquals(ClientOrderIds.hash("Run42-A1"), command.clientOrderId);
        assertEquals(ClientOrderIds.hash("cxl-1"), command.newClientOrderId);
        assertEquals("CommandText{Run42-A1, cxl-1}", entry.ids.toString());
        assertEquals(0, table.size(), "a cancel claims nothing");
        assertEquals(OrderEntry.Outcome.COMMAND, replace("Run42-A1/r1", "Run42-A1"));
        assertEquals("CommandText{Run42-A1, Run42-A1/r1}", entry.ids.toString());
        assertEquals("Run42-A1/r1", tableText(ClientOrderIds.hash("Run42-A1/r1")));
        assertEquals(OrderEntry.Outcome.COMMAND, replace("same", "same"));
        assertEquals(1, table.size(), "a replace keeping its ClOrdID claims nothing");
    }

    @Test
    void idsBreakingTheRuleAreRefusedWithTheRule() {
        for (final String bad : new String[] {"x".repeat(65), "a b", "tab\tx"}) {
            assertEquals(OrderEntry.Outcome.REFUSED, newOrder(bad), bad);
            assertEquals(ClientOrderIds.RULE, entry.text);
            assertEquals(OrderEntry.Outcome.REFUSED, cancel("ok", bad), bad);
            assertEquals(ClientOrderIds.RULE, entry.text);
        }
        assertEquals(OrderEntry.Outcome.COMMAND, newOrder("x".repeat(64)));
        assertEquals(1, table.size(), "refused ids claim nothing");
    }

    @Test
    void aHashCollisionWithALiveOrderIsRefusedAndNeverReachesThatOrder() {
        // Simulate another text that hashes to Run42-A1's id being live in the account.
        final UnsafeBuffer other = new UnsafeBuffer("other".getBytes(StandardCharsets.US_ASCII));
        entry();
        table.claim(ACCOUNT, ClientOrderIds.hash("Run42-A1"), other, 0, other.capacity());

        assertEquals(OrderEntry.Outcome.REFUSED, newOrder("Run42-A1"));
        assertEquals(99, entry.reason);
        assertEquals("ClOrdID Run42-A1 has the same 64-bit id as another live order's ClOrdID (a hash collision, about one in 10^14"
            + " even at 100,000 live orders); send it with another ClOrdID", entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, cancel("cxl-1", "Run42-A1"));
        assertEquals(1, entry.reason, "unknown order");
        assertEquals("OrigClOrdID Run42-A1 is not a live order of this session", entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, replace("Run42-A1", "A0"));
        assertEquals("other", tableText(ClientOrderIds.hash("Run42-A1")), "the live order's text is untouched");
    }
}
