package io.chronex.gateway.core;

import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import io.chronex.gateway.config.GatewayConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The order-entry core with no protocol under it: a request built by hand, with a front-end's own names for the fields. */
class OrderEntryTest {
    private static final long ACCOUNT = 7;

    @TempDir
    Path tmp;
    private ClOrdIdTable table;
    private OrderEntry entry;
    private final OrderRequest request = new OrderRequest();
    private final Command command = new Command();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
    private int end;

    @BeforeEach
    void open() {
        table = new ClOrdIdTable(tmp.resolve("clordids.table"));
        final Map<RequestField, String> names = new EnumMap<>(RequestField.class);
        for (final RequestField f : RequestField.values()) {
            names.put(f, f.name().toLowerCase(java.util.Locale.ROOT));
        }
        names.put(RequestField.ORDER_QTY, "quantity");
        entry = new OrderEntry(new Instruments(List.of(new GatewayConfig.Symbol(1, "ACME", 2, 5, 1)),
            List.of(new AssetSpec(1, "USD", 2), new AssetSpec(2, "ACME", 0))), table, names);
    }

    @AfterEach
    void close() {
        table.close();
    }

    /** A limit buy GTC with these texts (null: absent). */
    private void limitBuy(final String clOrdId, final String symbol, final String quantity, final String price) {
        request.reset(CommandType.NEW_ORDER, buffer);
        end = 0;
        put(RequestField.CL_ORD_ID, clOrdId);
        put(RequestField.SYMBOL, symbol);
        put(RequestField.ORDER_QTY, quantity);
        put(RequestField.PRICE, price);
        request.side = Side.BUY;
        request.orderType = OrderType.LIMIT;
        request.timeInForce = TimeInForce.GTC;
    }

    private void put(final RequestField field, final String text) {
        if (text != null) {
            final byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
            buffer.putBytes(end, bytes);
            request.set(field, end, bytes.length);
            end += bytes.length;
        }
    }

    @Test
    void aGoodLimitOrderBecomesTheCommandWithItsIdClaimed() {
        limitBuy("web-1", "ACME", "10", "100.25");
        assertEquals(OrderEntry.Outcome.COMMAND, entry.translate(request, ACCOUNT, command));
        assertEquals(CommandType.NEW_ORDER, command.type);
        assertEquals(ACCOUNT, command.account);
        assertEquals(1, command.symbol);
        assertEquals(Side.BUY, command.side);
        assertEquals(10, command.quantity);
        assertEquals(10025, command.price);
        assertEquals(TimeInForce.GTC, command.timeInForce);
        assertEquals("web-1", entry.ids.clientOrderIdText());
        assertTrue(table.holds(ACCOUNT, command.clientOrderId, buffer, 0, 5), "claimed");
    }

    @Test
    void refusalsUseTheFrontEndsNamesAndTheSameCodesAsFix() {
        limitBuy("a", "ACME", "1.5", "100.00");
        assertEquals(OrderEntry.Outcome.REFUSED, entry.translate(request, ACCOUNT, command));
        assertEquals(Refusal.INCORRECT_QUANTITY, entry.reason);
        assertEquals("quantity 1.5 is not a whole number of units", entry.text);

        limitBuy("a", "ACME", "10", "100.005");
        assertEquals(OrderEntry.Outcome.REFUSED, entry.translate(request, ACCOUNT, command));
        assertEquals("price 100.005 is not on the tick of ACME (0.05); prices are never rounded", entry.text);

        limitBuy("a", "NOPE", "10", "100.00");
        assertEquals(OrderEntry.Outcome.REFUSED, entry.translate(request, ACCOUNT, command));
        assertEquals(Refusal.UNKNOWN, entry.reason);
        assertEquals("unknown symbol NOPE", entry.text);

        limitBuy("a", "ACME", "10", "abc");
        assertEquals(OrderEntry.Outcome.MALFORMED, entry.translate(request, ACCOUNT, command));
        assertEquals(RequestField.PRICE, entry.malformedField);
        assertEquals(false, entry.missing);

        limitBuy("a", "ACME", "10", null);
        assertEquals(OrderEntry.Outcome.MALFORMED, entry.translate(request, ACCOUNT, command));
        assertEquals(RequestField.PRICE, entry.malformedField);
        assertEquals(true, entry.missing);
    }

    @Test
    void faultsAreReportedInTheCoresOrderWhicheverTheFrontEndFoundFirst() {
        // An unsupported side, an id that breaks the rule: the id is checked first, as for FIX.
        limitBuy("has space", "ACME", "10", "100.00");
        request.side = null;
        request.sideRefusal = "side sideways is not supported";
        assertEquals(OrderEntry.Outcome.REFUSED, entry.translate(request, ACCOUNT, command));
        assertEquals(ClientOrderIds.RULE, entry.text);
        limitBuy("ok", "ACME", "10", "100.00");
        request.side = null;
        request.sideRefusal = "side sideways is not supported";
        assertEquals(OrderEntry.Outcome.REFUSED, entry.translate(request, ACCOUNT, command));
        assertEquals("side sideways is not supported", entry.text);
    }

    @Test
    void aBalanceInquiryAsksEveryAssetInTheConfigurationsOrder() {
        request.reset(CommandType.BALANCE, buffer);
        end = 0;
        put(RequestField.INQUIRY_ID, "bal-1");
        assertEquals(OrderEntry.Outcome.COMMAND, entry.translate(request, ACCOUNT, command));
        assertEquals(2, entry.inquiryCount);
        assertEquals(List.of(1, 2), List.of(entry.inquiryAsset(1), entry.inquiryAsset(2)));
        assertEquals("bal-1", entry.ids.newClientOrderIdText());
    }
}
