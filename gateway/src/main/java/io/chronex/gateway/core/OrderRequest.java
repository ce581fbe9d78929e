package io.chronex.gateway.core;

import io.chronex.api.CommandType;
import io.chronex.api.OrderType;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * One order-entry request as a protocol front-end read it, for {@link OrderEntry}: text fields as spans of the front-end's
 * buffer (nothing copied), the coded fields already in the exchange's terms. A coded field the exchange does not support
 * is null with the front-end's words for why (its names and codes), given only when {@link OrderEntry} reaches that check,
 * so the order in which a request's faults are reported is the core's, the same for every protocol. Reused: no allocation.
 */
public final class OrderRequest {
    /** NEW_ORDER, CANCEL, REPLACE, MASS_CANCEL or BALANCE. */
    public CommandType type;
    public Side side;
    public String sideRefusal;
    public OrderType orderType;
    public String orderTypeRefusal;
    public TimeInForce timeInForce;
    public String timeInForceRefusal;
    public boolean postOnly;
    /** A mass cancel of every symbol (else of {@link RequestField#SYMBOL}); null when the scope asked is not supported. */
    public Boolean allSymbols;
    public String scopeRefusal;
    /** A refusal the front-end's own rules make, reported where the core checks it (after the account); null: none. */
    public String frontEndRefusal;

    private DirectBuffer buffer;
    private final int[] offsets = new int[RequestField.COUNT];
    private final int[] lengths = new int[RequestField.COUNT];

    /** Starts a request of this type whose text fields are in buffer: none present yet, nothing coded. */
    public void reset(final CommandType type, final DirectBuffer buffer) {
        this.type = type;
        this.buffer = buffer;
        java.util.Arrays.fill(lengths, -1);
        side = null;
        sideRefusal = null;
        orderType = null;
        orderTypeRefusal = null;
        timeInForce = null;
        timeInForceRefusal = null;
        postOnly = false;
        allSymbols = null;
        scopeRefusal = null;
        frontEndRefusal = null;
    }

    public void set(final RequestField field, final int offset, final int length) {
        offsets[field.ordinal()] = offset;
        lengths[field.ordinal()] = length;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public boolean has(final RequestField field) {
        return lengths[field.ordinal()] >= 0;
    }

    public int offset(final RequestField field) {
        return offsets[field.ordinal()];
    }

    public int length(final RequestField field) {
        return lengths[field.ordinal()];
    }

    /** The field as sent (allocates: for refusal texts only); null when absent. */
    public String text(final RequestField field) {
        if (!has(field)) {
            return null;
        }
        final byte[] bytes = new byte[length(field)];
        buffer.getBytes(offset(field), bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** Whether the field is exactly these bytes. */
    public boolean valueEquals(final RequestField field, final byte[] ascii) {
        final int length = lengths[field.ordinal()];
        if (length != ascii.length) {
            return false;
        }
        final int offset = offsets[field.ordinal()];
        for (int i = 0; i < length; i++) {
            if (buffer.getByte(offset + i) != ascii[i]) {
                return false;
            }
        }
        return true;
    }
}
