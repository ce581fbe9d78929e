package io.chronex.gateway;

import io.chronex.gateway.core.ClientOrderIds;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import org.agrona.DirectBuffer;

/**
 * The third-party route of the client message being handled: its OnBehalfOfCompID (115),
 * OnBehalfOfSubID (116) and OnBehalfOfLocationID (144), which whatever the session answers while
 * handling it carries back as DeliverToCompID (128), DeliverToSubID (129) and DeliverToLocationID
 * (145) ({@link Outbox#begin}). {@link Gateway#onMessage} sets it just before the session handles the
 * message and clears it right after; the values stay in the connection's input buffer meanwhile, so
 * nothing is copied. 116 and 144 count only with a 115 (FIX ties them to it); a message without 115
 * has no route and its answers are what they always were.
 *
 * <p>Values must follow the ClOrdID rule (1..64 printable ASCII characters, 0x21..0x7E). A message
 * whose 115, or 116 or 144 next to a 115, breaks it is malformed: the session rejects it as it
 * rejects a header field in the wrong format (SessionRejectReason 6, RefTagID the tag, Text the rule),
 * and the Reject carries no route (the values cannot be echoed).
 */
final class ReplyRoute {
    private static final String COMP_RULE = "OnBehalfOfCompID (115) must be 1..64 printable ASCII characters (0x21..0x7E)";
    private static final String SUB_RULE = "OnBehalfOfSubID (116) must be 1..64 printable ASCII characters (0x21..0x7E)";
    private static final String LOCATION_RULE = "OnBehalfOfLocationID (144) must be 1..64 printable ASCII characters (0x21..0x7E)";

    /** The connection the message came on: only its session's messages are answers. Null: no route now. */
    private Connection connection;
    private DirectBuffer buffer;
    private int compOffset;
    private int compLength;
    private int subOffset;
    private int subLength;
    private int locationOffset;
    private int locationLength;

    /**
     * Takes the route of the message just decoded on connection c.
     *
     * @return the status the session should handle the message with: the decoder's, or
     * {@link FixDecoder#INCORRECT_DATA_FORMAT} when a well-formed message's route breaks the rule
     */
    int set(final Connection c, final FixDecoder m, final int status) {
        clear();
        if (!m.has(FixTags.ON_BEHALF_OF_COMP_ID)) {
            return status;
        }
        final int problem = problem(m);
        if (problem != 0) {
            // Rejected as the decoder's own format problems are: the tag and the rule in the decoder, for the session's Reject.
            return status != FixDecoder.OK ? status : m.invalid(FixDecoder.INCORRECT_DATA_FORMAT, problem,
                problem == FixTags.ON_BEHALF_OF_COMP_ID ? COMP_RULE : problem == FixTags.ON_BEHALF_OF_SUB_ID ? SUB_RULE : LOCATION_RULE);
        }
        connection = c;
        buffer = m.buffer();
        compOffset = m.valueOffset(FixTags.ON_BEHALF_OF_COMP_ID);
        compLength = m.valueLength(FixTags.ON_BEHALF_OF_COMP_ID);
        subOffset = m.valueOffset(FixTags.ON_BEHALF_OF_SUB_ID);
        subLength = Math.max(0, m.valueLength(FixTags.ON_BEHALF_OF_SUB_ID));
        locationOffset = m.valueOffset(FixTags.ON_BEHALF_OF_LOCATION_ID);
        locationLength = Math.max(0, m.valueLength(FixTags.ON_BEHALF_OF_LOCATION_ID));
        return status;
    }

    /** The first of the message's 115, 116, 144 that breaks the rule, or 0. */
    static int problem(final FixDecoder m) {
        if (!valid(m, FixTags.ON_BEHALF_OF_COMP_ID)) {
            return FixTags.ON_BEHALF_OF_COMP_ID;
        }
        if (m.has(FixTags.ON_BEHALF_OF_SUB_ID) && !valid(m, FixTags.ON_BEHALF_OF_SUB_ID)) {
            return FixTags.ON_BEHALF_OF_SUB_ID;
        }
        if (m.has(FixTags.ON_BEHALF_OF_LOCATION_ID) && !valid(m, FixTags.ON_BEHALF_OF_LOCATION_ID)) {
            return FixTags.ON_BEHALF_OF_LOCATION_ID;
        }
        return 0;
    }

    private static boolean valid(final FixDecoder m, final int tag) {
        return m.has(tag) && ClientOrderIds.valid(m.buffer(), m.valueOffset(tag), m.valueLength(tag));
    }

    /** The message is handled: what is sent from now on answers nothing. */
    void clear() {
        connection = null;
        buffer = null;
    }

    /**
     * Whether a message of this type to this session answers the message being handled. The
     * session's own business (its Logon, TestRequest, ResendRequest, SequenceReset) is not an
     * answer to the third party, only to the session, and carries no route.
     */
    boolean answers(final FixSession s, final int msgType) {
        return connection != null && s.connection == connection && msgType != FixMsgTypes.LOGON && msgType != FixMsgTypes.TEST_REQUEST
            && msgType != FixMsgTypes.RESEND_REQUEST && msgType != FixMsgTypes.SEQUENCE_RESET;
    }

    /** Adds 128 and, when the message had them, 129 and 145 to the header being written. */
    void write(final FixEncoder e) {
        e.addBytes(FixTags.DELIVER_TO_COMP_ID, buffer, compOffset, compLength);
        if (subLength > 0) {
            e.addBytes(FixTags.DELIVER_TO_SUB_ID, buffer, subOffset, subLength);
        }
        if (locationLength > 0) {
            e.addBytes(FixTags.DELIVER_TO_LOCATION_ID, buffer, locationOffset, locationLength);
        }
    }
}
