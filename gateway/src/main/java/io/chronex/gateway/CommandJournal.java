package io.chronex.gateway;

import io.chronex.gateway.core.ReceivedOrderIds;
import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.api.Command;
import io.chronex.gateway.core.Journal;
import io.chronex.gateway.core.OrderEntry;
import io.chronex.gateway.core.OrderRequest;
import io.chronex.gateway.core.Refusal;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.gateway.session.SessionStateFile;

/**
 * Order entry's path into the journal: a session's order-entry message, in sequence, becomes one
 * engine command (a CollateralInquiry one BALANCE per asset it asks) appended to the commands
 * queue with its hop timestamps and MsgSeqNum, or is refused here (throttle, anything
 * {@link OrderEntry} cannot translate) with the reject FIX has for that request. Also journals
 * cancel-on-disconnect, and keeps the state file's scan-from checkpoint near the journal's end so
 * a restart scans little.
 */
final class CommandJournal implements FixSession.Application {
    private static final long SECOND = 1_000_000_000L;
    /** OrdRejReason (103) 6: duplicate order. */
    private static final int DUPLICATE_ORDER = 6;
    /** OrdRejReason / CxlRejReason / MassCancelRejectReason 99: other. */
    private static final int OTHER = 99;

    private final Journal journal;
    private final OrderEntry orderEntry;
    private final SessionStateFile state;
    private final Outbox outbox;
    private final SessionProxy proxy;
    private final Framer framer;
    private final Gateway.Log log;
    private final ReceivedOrderIds received;
    private final Command command = new Command();
    private final FixOrderRequests requests = new FixOrderRequests();
    private final OrderRequest request = new OrderRequest();
    /** Third-party routes of requests (null: not kept, as in tests of order entry alone); set by {@link Gateway}. */
    RequestRoutes routes;
    private FixDecoder decoder;
    private long nextScanFromNanos;
    /**
     * ExecIDs of refusals decided here (they have no events index to be named by): R, the gateway,
     * its start time, a count. Unique across sessions, sequence resets and restarts, unlike the
     * MsgSeqNum used before (which a ResetSeqNumFlag logon starts again).
     */
    private final String rejectExecIdPrefix;
    private long gatewayRejectsSent;

    long businessRejects;

    CommandJournal(final int gatewayId, final Journal journal, final OrderEntry orderEntry, final SessionStateFile state,
                   final Outbox outbox, final SessionProxy proxy, final Framer framer, final ReceivedOrderIds received,
                   final Gateway.Log log) {
        this.journal = journal;
        this.orderEntry = orderEntry;
        this.state = state;
        this.outbox = outbox;
        this.proxy = proxy;
        this.framer = framer;
        this.received = received;
        this.rejectExecIdPrefix = "R" + gatewayId + "-" + Long.toHexString(System.currentTimeMillis()) + "-";
        this.log = log;
    }

    @Override
    public void onOrderEntry(final FixSession s, final FixDecoder message, final int msgType, final long seq) {
        decoder = message;
        if (!s.admit(framer.readNanos)) {
            throttled(s, msgType, seq);
            return;
        }
        final String storageRefusal = journal.storageRefusal(FixOrderRequests.type(msgType), framer.readNanos);
        if (storageRefusal != null) {
            businessRejects++;
            gatewayReject(s, msgType, OTHER, storageRefusal);
            return;
        }
        if (msgType == FixMsgTypes.NEW_ORDER_SINGLE && message.booleanValue(FixTags.POSS_DUP_FLAG) && alreadyReceived(s, message)) {
            businessRejects++;
            gatewayReject(s, msgType, DUPLICATE_ORDER, "possible duplicate (PossDupFlag=Y) of an order this session already sent with"
                + " that ClOrdID; not processed again");
            return;
        }
        if (!requests.read(message, msgType, request)) {
            malformed(s, seq, msgType, requests.missingTag, true);
            return;
        }
        OrderEntry.Outcome outcome = orderEntry.check(request, s.account, command);
        if (outcome == OrderEntry.Outcome.COMMAND && routes != null) {
            // Before any ClOrdID is claimed: a request refused for its route leaves nothing behind.
            final String refusal = routes.admit(message, command);
            if (refusal != null) {
                orderEntry.refuse(Refusal.OTHER, refusal);
                outcome = OrderEntry.Outcome.REFUSED;
            }
        }
        if (outcome == OrderEntry.Outcome.COMMAND) {
            outcome = orderEntry.claim(request, command);
        }
        if (outcome == OrderEntry.Outcome.MALFORMED) {
            malformed(s, seq, msgType, FixOrderRequests.tag(orderEntry.malformedField), orderEntry.missing);
            return;
        }
        if (outcome == OrderEntry.Outcome.REFUSED) {
            businessRejects++;
            gatewayReject(s, msgType, orderEntry.reason, orderEntry.text);
            return;
        }
        if (routes != null) {
            // Kept before the append, so no kill loses the route of a journalled request; its index right after.
            routes.claim();
        }
        final long index = journal.append(command, orderEntry, s.account, seq, framer.readNanos, framer.readEpochNanos);
        if (routes != null) {
            routes.journalled(index);
        }
        if (msgType == FixMsgTypes.NEW_ORDER_SINGLE) {
            received.add(s.account, command.clientOrderId);
        }
        if (state.scanFrom() < 0) {
            // The first command this gateway ever journalled: from now on a restart scans from here.
            state.scanFrom(journal.lastAppendIndex());
        }
    }

    /** A tag missing (SessionRejectReason 1) or not in its format (6): a session-level Reject naming it. */
    private void malformed(final FixSession s, final long seq, final int msgType, final int tag, final boolean missing) {
        proxy.reject(s, seq, tag, msgType, missing ? 1 : 6, missing ? "required tag " + tag + " missing" : "tag " + tag
            + " has an incorrect format");
    }

    /**
     * An in-sequence NewOrderSingle marked PossDupFlag=Y is a copy the client is not sure we had (a
     * resend after its sequence numbers were reset, say): executing it again could fill it twice.
     */
    private boolean alreadyReceived(final FixSession s, final FixDecoder message) {
        if (!message.has(FixTags.CL_ORD_ID)) {
            return false;
        }
        final int offset = message.valueOffset(FixTags.CL_ORD_ID);
        final int length = message.valueLength(FixTags.CL_ORD_ID);
        return ClientOrderIds.valid(message.buffer(), offset, length)
            && received.contains(s.account, ClientOrderIds.hash(message.buffer(), offset, length));
    }

    /** A refusal decided at the gateway (nothing reaches the journal): the reject message FIX has for that request. */
    private void gatewayReject(final FixSession s, final int msgType, final int reason, final String text) {
        final long now = System.currentTimeMillis();
        if (msgType == FixMsgTypes.NEW_ORDER_SINGLE) {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.EXECUTION_REPORT, now);
            e.addAscii(FixTags.ORDER_ID, "NONE");
            copy(e, FixTags.CL_ORD_ID);
            e.addAscii(FixTags.EXEC_ID, rejectExecIdPrefix + (++gatewayRejectsSent));
            e.addChar(FixTags.EXEC_TYPE, '8');
            e.addChar(FixTags.ORD_STATUS, '8');
            e.addLong(FixTags.ACCOUNT, s.account);
            copy(e, FixTags.SYMBOL);
            copy(e, FixTags.SIDE);
            copy(e, FixTags.ORDER_QTY);
            e.addLong(FixTags.LEAVES_QTY, 0);
            e.addLong(FixTags.CUM_QTY, 0);
            e.addLong(FixTags.AVG_PX, 0);
            e.addLong(FixTags.ORD_REJ_REASON, reason);
            e.addAscii(FixTags.TEXT, text);
            e.addUtcTimestamp(FixTags.TRANSACT_TIME, now);
        } else if (msgType == FixMsgTypes.COLLATERAL_INQUIRY) {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.COLLATERAL_INQUIRY_ACK, now);
            final boolean hasId = decoder.has(FixTags.COLL_INQUIRY_ID);
            CollateralMessages.refusal(e, decoder.buffer(), hasId ? decoder.valueOffset(FixTags.COLL_INQUIRY_ID) : 0,
                hasId ? decoder.valueLength(FixTags.COLL_INQUIRY_ID) : 0, 0, s.account,
                decoder.has(FixTags.CURRENCY) ? decoder.stringValue(FixTags.CURRENCY) : null, text);
        } else if (msgType == FixMsgTypes.ORDER_MASS_CANCEL_REQUEST) {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.ORDER_MASS_CANCEL_REPORT, now);
            copy(e, FixTags.CL_ORD_ID);
            e.addAscii(FixTags.ORDER_ID, "NONE");
            copy(e, FixTags.MASS_CANCEL_REQUEST_TYPE);
            e.addChar(FixTags.MASS_CANCEL_RESPONSE, '0');
            e.addLong(FixTags.MASS_CANCEL_REJECT_REASON, reason == 1 ? 1 : 99);
            e.addAscii(FixTags.TEXT, text);
        } else {
            final FixEncoder e = outbox.begin(s, FixMsgTypes.ORDER_CANCEL_REJECT, now);
            e.addAscii(FixTags.ORDER_ID, "NONE");
            copy(e, FixTags.CL_ORD_ID);
            copy(e, FixTags.ORIG_CL_ORD_ID);
            e.addChar(FixTags.ORD_STATUS, '8');
            e.addLong(FixTags.ACCOUNT, s.account);
            e.addChar(FixTags.CXL_REJ_RESPONSE_TO, msgType == FixMsgTypes.ORDER_CANCEL_REQUEST ? '1' : '2');
            e.addLong(FixTags.CXL_REJ_REASON, reason == 1 ? 1 : 99);
            e.addAscii(FixTags.TEXT, text);
        }
        outbox.end(framer.readNanos, 0);
        outbox.commit(-1);
    }

    private void throttled(final FixSession s, final int msgType, final long seq) {
        final String text = "throttled: more than " + s.config.throttlePerSecond() + " messages a second";
        if (msgType == FixMsgTypes.ORDER_MASS_CANCEL_REQUEST) {
            proxy.businessReject(s, seq, msgType, 99, text);
        } else {
            businessRejects++;
            gatewayReject(s, msgType, 99, text);
        }
    }

    private void copy(final FixEncoder e, final int tag) {
        if (decoder.has(tag)) {
            e.addBytes(tag, decoder.buffer(), decoder.valueOffset(tag), decoder.valueLength(tag));
        }
    }

    @Override
    public long journalEnd() {
        return journal.end();
    }

    /** Journals a mass cancel of the session's account, answered to no one: each cancelled order is still reported. */
    void cancelOnDisconnect(final FixSession s, final String why) {
        journal.appendCancelAll(command, s.account, System.nanoTime(), framer.wallClock.nanoTime());
        log.log("session " + s.name + ": cancel on disconnect: mass cancel of account " + s.account + " journalled" + why);
    }

    /** Moves the restart scan's starting point up to the last command appended, at most once a second. */
    void checkpoint(final long nowNanos) {
        if (nowNanos >= nextScanFromNanos) {
            nextScanFromNanos = nowNanos + SECOND;
            checkpoint();
        }
    }

    void checkpoint() {
        if (journal.lastAppendIndex() >= 0) {
            state.scanFrom(journal.lastAppendIndex());
        }
    }
}
