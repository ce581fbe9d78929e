package io.chronex.gateway;

import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import quickfix.DataDictionary;
import quickfix.Message;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The answers to a CollateralInquiry as the gateway writes them: each field where the balance query puts it, amounts
 * in the asset's decimals, and every message valid for QuickFIX/J's FIX 4.4 dictionary (what a client validating with
 * UseDataDictionary=Y checks).
 */
class CollateralMessagesTest {
    private static final byte[] REPORT_ID = "1a2b-1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INQUIRY_ID = "INQ-7".getBytes(StandardCharsets.US_ASCII);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final FixEncoder encoder = new FixEncoder(buffer);

    private FixEncoder begin(final int msgType) {
        return encoder.start(0, msgType).addAscii(FixTags.SENDER_COMP_ID, "CHRONEX").addAscii(FixTags.TARGET_COMP_ID, "ALICE")
            .addLong(FixTags.MSG_SEQ_NUM, 5).addUtcTimestamp(FixTags.SENDING_TIME, 1_795_349_467_123L);
    }

    /** The message finished, parsed and validated by QuickFIX/J as a client with its FIX 4.4 dictionary would. */
    private Message finish() throws Exception {
        final int length = encoder.finish();
        final byte[] bytes = new byte[length];
        buffer.getBytes(encoder.messageOffset(), bytes);
        final DataDictionary dictionary = new DataDictionary("FIX44.xml");
        final Message m = new Message(new String(bytes, StandardCharsets.US_ASCII), dictionary, true);
        dictionary.validate(m);
        return m;
    }

    @Test
    void aReportCarriesTheBalanceInTheAssetsDecimals() throws Exception {
        CollateralMessages.report(begin(FixMsgTypes.COLLATERAL_REPORT), REPORT_ID, REPORT_ID.length, INQUIRY_ID, INQUIRY_ID.length, 1,
            "USD", 2, 10, 100_010, 1, 3);
        final Message m = finish();
        assertEquals("BA", m.getHeader().getString(35));
        assertEquals("1a2b-1", m.getString(908), "CollRptID");
        assertEquals("INQ-7", m.getString(909), "CollInquiryID echoed");
        assertEquals(3, m.getInt(910), "CollStatus assigned");
        assertEquals(3, m.getInt(911), "TotNumReports");
        assertFalse(m.getBoolean(912), "report 1 of 3 is not the last");
        assertEquals("1", m.getString(1));
        assertEquals("USD", m.getString(15));
        assertEquals("0.10", m.getString(899), "MarginExcess: available");
        assertEquals("1000.10", m.getString(901), "CashOutstanding: held by open orders");
        assertEquals("1000.20", m.getString(900), "TotalNetValue: both");
    }

    @Test
    void theLastReportSaysSoAndAnAssetWithoutDecimalsIsWholeUnits() throws Exception {
        CollateralMessages.report(begin(FixMsgTypes.COLLATERAL_REPORT), REPORT_ID, REPORT_ID.length, INQUIRY_ID, 0, 1, "ACME", 0,
            10, 0, 3, 3);
        final Message m = finish();
        assertEquals("Y", m.getString(912));
        assertFalse(m.isSetField(909), "no CollInquiryID asked, none echoed");
        assertEquals("10", m.getString(899));
        assertEquals("0", m.getString(901));
        assertEquals("10", m.getString(900));
    }

    @Test
    void aRefusalIsARejectedAckWithTheReason() throws Exception {
        CollateralMessages.refusal(begin(FixMsgTypes.COLLATERAL_INQUIRY_ACK), new UnsafeBuffer(INQUIRY_ID), 0, INQUIRY_ID.length, 0, 1,
            "EUR", "unknown Currency EUR (assets: USD, ACME, GLOBEX)");
        final Message m = finish();
        assertEquals("BG", m.getHeader().getString(35));
        assertEquals("INQ-7", m.getString(909));
        assertEquals(4, m.getInt(945), "CollInquiryStatus rejected");
        assertEquals(99, m.getInt(946), "CollInquiryResult other");
        assertEquals("EUR", m.getString(15));
        assertEquals("unknown Currency EUR (assets: USD, ACME, GLOBEX)", m.getString(58));
        assertFalse(m.isSetField(911));
    }

    @Test
    void aRefusalOfAnInquiryWithoutIdStillCarriesTheRequiredCollInquiryId() throws Exception {
        CollateralMessages.refusal(begin(FixMsgTypes.COLLATERAL_INQUIRY_ACK), new UnsafeBuffer(INQUIRY_ID), 0, 0, 3, 1, null,
            "UNKNOWN_ACCOUNT");
        final Message m = finish();
        assertEquals("NONE", m.getString(909));
        assertEquals(3, m.getInt(911));
        assertFalse(m.isSetField(15));
        assertEquals("UNKNOWN_ACCOUNT", m.getString(58));
    }

    @Test
    void amountsKeepEveryDecimal() {
        final long[][] cases = {{0, 2}, {5, 2}, {-5, 2}, {123_456_789, 8}, {7, 0}};
        final String[] expected = {"0.00", "0.05", "-0.05", "1.23456789", "7"};
        for (int i = 0; i < cases.length; i++) {
            begin(FixMsgTypes.COLLATERAL_REPORT).addAmount(FixTags.MARGIN_EXCESS, cases[i][0], (int) cases[i][1]);
            final int length = encoder.finish();
            final String text = buffer.getStringWithoutLengthAscii(encoder.messageOffset(), length);
            final int at = text.indexOf("\u0001899=") + 5;
            assertEquals(expected[i], text.substring(at, text.indexOf('\u0001', at)));
        }
    }
}
