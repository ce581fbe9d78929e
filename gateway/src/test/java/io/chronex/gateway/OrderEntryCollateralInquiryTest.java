package io.chronex.gateway;

import io.chronex.gateway.core.ClOrdIdTable;
import io.chronex.gateway.core.Instruments;
import io.chronex.gateway.core.OrderEntry;
import io.chronex.gateway.core.OrderRequest;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.api.AssetSpec;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.gateway.fix.FixDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A CollateralInquiry (BB) into BALANCE commands: one per asset asked (Currency, or every asset of the engine's
 * file in its order), numbered 1..n with n in quantity, the CollInquiryID as the request's text; and the refusals
 * decided before the journal.
 */
class OrderEntryCollateralInquiryTest {
    private static final long ACCOUNT = 7;
    private static final List<AssetSpec> ASSETS = List.of(new AssetSpec(1, "USD", 2), new AssetSpec(2, "ACME", 0),
        new AssetSpec(3, "GLOBEX", 0));

    @TempDir
    Path tmp;
    private ClOrdIdTable table;
    private final FixDecoder decoder = new FixDecoder();
    private final Command command = new Command();
    private final FixOrderRequests requests = new FixOrderRequests();
    private final OrderRequest request = new OrderRequest();

    @AfterEach
    void close() {
        if (table != null) {
            table.close();
        }
    }

    private OrderEntry entry(final List<AssetSpec> assets) {
        if (table == null) {
            table = new ClOrdIdTable(tmp.resolve("clordids.table"));
        }
        return new OrderEntry(new Instruments(List.of(new GatewayConfig.Symbol(1, "ACME", 2, 1, 1)), assets), table,
            FixOrderRequests.NAMES);
    }

    private OrderEntry.Outcome inquiry(final OrderEntry entry, final String fields) {
        final byte[] bytes = FixText.whole("35=BB\u000149=C\u000156=CHRONEX\u000134=2\u000152=20261122-10:00:00.000\u0001" + fields);
        assertEquals(FixDecoder.OK, decoder.decode(new UnsafeBuffer(bytes), 0, bytes.length));
        assertTrue(requests.read(decoder, decoder.msgType(), request), "required tags there");
        return entry.translate(request, ACCOUNT, command);
    }

    @Test
    void withoutCurrencyEveryAssetIsAskedInTheConfigurationsOrder() {
        final OrderEntry entry = entry(ASSETS);
        assertEquals(OrderEntry.Outcome.COMMAND, inquiry(entry, "909=INQ-1\u0001"));
        assertEquals(CommandType.BALANCE, command.type);
        assertEquals(ACCOUNT, command.account);
        assertEquals(1, command.symbol, "the first report's asset is filled in");
        assertEquals(1, command.clientOrderId, "report number 1");
        assertEquals(3, command.quantity, "of 3");
        assertEquals(3, entry.inquiryCount);
        assertEquals(List.of(1, 2, 3), List.of(entry.inquiryAsset(1), entry.inquiryAsset(2), entry.inquiryAsset(3)));
        assertEquals("CommandText{, INQ-1}", entry.ids.toString(), "the CollInquiryID is the request's own text");
        assertEquals(0, table.size(), "an inquiry claims no ClOrdID");
    }

    @Test
    void aCurrencyAsksThatAssetAloneAndTheSessionsOwnAccountIsAccepted() {
        final OrderEntry entry = entry(ASSETS);
        assertEquals(OrderEntry.Outcome.COMMAND, inquiry(entry, "909=q\u00011=7\u000115=ACME\u0001"));
        assertEquals(2, command.symbol);
        assertEquals(1, command.clientOrderId);
        assertEquals(1, command.quantity);
        assertEquals(1, entry.inquiryCount);
        assertEquals(OrderEntry.Outcome.COMMAND, inquiry(entry, "15=USD\u0001"));
        assertEquals(1, command.symbol);
        assertEquals("CommandText{, }", entry.ids.toString(), "without CollInquiryID there is no text");
    }

    @Test
    void refusalsSayWhy() {
        final OrderEntry entry = entry(ASSETS);
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "909=q\u000115=EUR\u0001"));
        assertEquals("unknown Currency EUR (assets: USD, ACME, GLOBEX)", entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "909=q\u00011=8\u0001"));
        assertEquals("Account 8 is not this session's account (7)", entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "909=a b\u0001"));
        assertEquals(entry.inquiryIdRule(), entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "909=" + "x".repeat(65) + "\u0001"));
        assertEquals(entry.inquiryIdRule(), entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "909=q\u0001263=1\u0001"));
        assertEquals("SubscriptionRequestType 1 is not supported: a CollateralInquiry is answered once (0, snapshot)", entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "115=DESK\u0001909=q\u0001"));
        assertEquals("CollateralInquiry with OnBehalfOfCompID (third-party routing) is not supported", entry.text);
        assertEquals(OrderEntry.Outcome.COMMAND, inquiry(entry, "909=q\u0001263=0\u0001"));
    }

    @Test
    void withoutAssetsInTheEngineConfigurationThereIsNothingToAsk() {
        final OrderEntry entry = entry(List.of());
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "909=q\u0001"));
        assertEquals("no assets: accounts on this exchange hold no money, there is no balance to report", entry.text);
        assertEquals(OrderEntry.Outcome.REFUSED, inquiry(entry, "909=q\u000115=USD\u0001"));
        assertEquals("no assets: accounts on this exchange hold no money, there is no balance to report", entry.text);
    }
}
