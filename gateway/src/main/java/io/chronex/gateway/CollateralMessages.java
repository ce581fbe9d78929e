package io.chronex.gateway;

import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixTags;
import org.agrona.DirectBuffer;

/**
 * The bodies of the two answers to a CollateralInquiry (BB), the FIX 4.4 way a client asks its
 * balances (docs/gateway.md, "Balances"): a CollateralReport (BA) per asset, or a
 * CollateralInquiryAck (BG) refusing. Fields in the dictionary's order; nothing allocated.
 */
final class CollateralMessages {
    /** CollInquiryID (909) is required in a BG: what one answering an inquiry without it carries. */
    static final byte[] NO_INQUIRY_ID = {'N', 'O', 'N', 'E'};
    /** CollStatus (910) 3, Assigned: the amounts are the account's own, nothing is proposed or disputed. */
    private static final int ASSIGNED = 3;
    /** CollInquiryStatus (945) 4, Rejected, with CollInquiryResult (946) 99, Other: the Text says why. */
    private static final int REJECTED = 4;
    private static final int OTHER = 99;

    private CollateralMessages() {
    }

    /**
     * A CollateralReport's body: report {@code number} of {@code total} for one asset of the account; MarginExcess (899)
     * is what is available, CashOutstanding (901) what open orders hold, TotalNetValue (900) the two together, all in
     * the asset's decimals.
     */
    static void report(final FixEncoder e, final byte[] reportId, final int reportIdLength, final byte[] inquiryId,
                       final int inquiryIdLength, final long account, final CharSequence currency, final int decimals,
                       final long available, final long held, final long number, final long total) {
        e.addAscii(FixTags.COLL_RPT_ID, reportId, reportIdLength);
        if (inquiryIdLength > 0) {
            e.addAscii(FixTags.COLL_INQUIRY_ID, inquiryId, inquiryIdLength);
        }
        e.addLong(FixTags.COLL_STATUS, ASSIGNED);
        e.addLong(FixTags.TOT_NUM_REPORTS, total);
        e.addBoolean(FixTags.LAST_RPT_REQUESTED, number == total);
        e.addLong(FixTags.ACCOUNT, account);
        e.addAscii(FixTags.CURRENCY, currency);
        e.addAmount(FixTags.MARGIN_EXCESS, available, decimals);
        final long sum = available + held;
        // Both are never negative, so only an overflow makes the sum negative: then a wrong total is worse than none.
        if (sum >= 0) {
            e.addAmount(FixTags.TOTAL_NET_VALUE, sum, decimals);
        }
        e.addAmount(FixTags.CASH_OUTSTANDING, held, decimals);
    }

    /**
     * A CollateralInquiryAck's body refusing the inquiry (or, for an engine reject, one asset of it: then with its
     * Currency and the inquiry's TotNumReports; 0 and null leave them out).
     */
    static void refusal(final FixEncoder e, final DirectBuffer inquiryId, final int inquiryIdOffset, final int inquiryIdLength,
                        final long total, final long account, final CharSequence currency, final CharSequence text) {
        if (inquiryIdLength > 0) {
            e.addBytes(FixTags.COLL_INQUIRY_ID, inquiryId, inquiryIdOffset, inquiryIdLength);
        } else {
            e.addAscii(FixTags.COLL_INQUIRY_ID, NO_INQUIRY_ID);
        }
        e.addLong(FixTags.COLL_INQUIRY_STATUS, REJECTED);
        e.addLong(FixTags.COLL_INQUIRY_RESULT, OTHER);
        if (total > 0) {
            e.addLong(FixTags.TOT_NUM_REPORTS, total);
        }
        e.addLong(FixTags.ACCOUNT, account);
        if (currency != null) {
            e.addAscii(FixTags.CURRENCY, currency);
        }
        e.addAscii(FixTags.TEXT, text);
    }
}
