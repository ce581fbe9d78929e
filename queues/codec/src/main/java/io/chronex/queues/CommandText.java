package io.chronex.queues;

import java.nio.charset.StandardCharsets;

/**
 * The original text of a command's client order ids (a FIX ClOrdID, OrigClOrdID), journalled
 * beside the engine's {@code long} ids so an audit can find an order by what the client called it.
 * A reused holder of two fixed byte arrays; length 0 = no text. The engine never reads it.
 */
public final class CommandText {
    /** Longest text a command can carry (FIX ClOrdID as the gateway accepts it). */
    public static final int MAX_LENGTH = 64;

    /** The text of {@code Command.clientOrderId}: NEW_ORDER's ClOrdID; CANCEL and REPLACE's OrigClOrdID. */
    public final byte[] clientOrderId = new byte[MAX_LENGTH];
    public int clientOrderIdLength;
    /**
     * The text of {@code Command.newClientOrderId}: the ClOrdID of a CANCEL, REPLACE or MASS_CANCEL request;
     * for an operator command (bin/admin), who issued it, as user@host.
     */
    public final byte[] newClientOrderId = new byte[MAX_LENGTH];
    public int newClientOrderIdLength;

    public CommandText clear() {
        clientOrderIdLength = 0;
        newClientOrderIdLength = 0;
        return this;
    }

    /** Whether either text is present (a command with none is journalled in the older, text-free layout). */
    public boolean isEmpty() {
        return clientOrderIdLength == 0 && newClientOrderIdLength == 0;
    }

    /** For tests and tools: sets both texts (null or "" = none); allocates. */
    public CommandText set(final String clientOrderIdText, final String newClientOrderIdText) {
        clientOrderIdLength = copy(clientOrderIdText, clientOrderId);
        newClientOrderIdLength = copy(newClientOrderIdText, newClientOrderId);
        return this;
    }

    /** For tests and tools: the client order id text, "" if none; allocates. */
    public String clientOrderIdText() {
        return new String(clientOrderId, 0, clientOrderIdLength, StandardCharsets.US_ASCII);
    }

    /** For tests and tools: the new client order id text, "" if none; allocates. */
    public String newClientOrderIdText() {
        return new String(newClientOrderId, 0, newClientOrderIdLength, StandardCharsets.US_ASCII);
    }

    private static int copy(final String text, final byte[] into) {
        if (text == null) {
            return 0;
        }
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > MAX_LENGTH) {
            throw new IllegalArgumentException("more than " + MAX_LENGTH + " characters: " + text);
        }
        System.arraycopy(bytes, 0, into, 0, bytes.length);
        return bytes.length;
    }

    @Override
    public String toString() {
        return "CommandText{" + clientOrderIdText() + ", " + newClientOrderIdText() + "}";
    }
}
