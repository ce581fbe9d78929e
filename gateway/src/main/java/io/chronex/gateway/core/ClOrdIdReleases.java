package io.chronex.gateway.core;

import io.chronex.api.Cancel;
import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Fill;
import io.chronex.api.Result;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Which ClOrdID claims one engine result ends: the one rule the live return path and the start-up
 * check of {@code clordids.table} share, so the check can never disagree with what the gateway did.
 */
public final class ClOrdIdReleases {
    /** No session of this gateway sent the command the result answers. */
    public static final long NO_DIRECT = Long.MIN_VALUE;

    /** Where a release goes (the table's deferred release live, a rebuilt table at start). */
    public interface Sink {
        void release(long account, long clientOrderId);
    }

    private ClOrdIdReleases() {
    }

    /**
     * A rejected new order's id; a replace's old id (or its new one if it failed) when it renamed;
     * every order of one of our accounts (keys of {@code ours}) filled or cancelled with nothing left.
     *
     * @param directAccount the account of the session here that sent the command, or {@link #NO_DIRECT}
     * @param request       a REPLACE from that session as journalled (required then), else anything
     */
    public static void of(final Result r, final long directAccount, final Command request, final Long2ObjectHashMap<?> ours,
                          final Sink sink) {
        final CommandType type = r.commandType;
        if (directAccount != NO_DIRECT) {
            if (type == CommandType.NEW_ORDER && r.isRejected()) {
                sink.release(directAccount, r.clientOrderId);
            } else if (type == CommandType.REPLACE && renames(request)) {
                // Renamed: the old ClOrdID is done; failed: the new one never was.
                sink.release(directAccount, r.isRejected() ? request.newClientOrderId : request.clientOrderId);
            }
        }
        for (int i = 0; i < r.fillCount(); i++) {
            final Fill f = r.fill(i);
            if (f.takerLeavesQuantity == 0 && ours.containsKey(f.takerAccount)) {
                sink.release(f.takerAccount, f.takerClientOrderId);
            }
            if (f.makerLeavesQuantity == 0 && ours.containsKey(f.makerAccount)) {
                sink.release(f.makerAccount, f.makerClientOrderId);
            }
        }
        for (int i = 0; i < r.cancelCount(); i++) {
            final Cancel x = r.cancel(i);
            if (x.leavesQuantity == 0 && ours.containsKey(x.account)) {
                sink.release(x.account, x.clientOrderId);
            }
        }
    }

    /**
     * Whether a journalled REPLACE gives the order a new ClOrdID (different texts with one hash are
     * refused before the journal, so for those the ids differ exactly when the texts do): then the
     * new one was claimed, and the result releases the old one, or the new one if the replace failed.
     */
    public static boolean renames(final Command replace) {
        return replace.newClientOrderId != replace.clientOrderId;
    }
}
