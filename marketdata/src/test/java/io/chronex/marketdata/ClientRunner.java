package io.chronex.marketdata;

import io.chronex.marketdata.client.FeedClient;
import io.chronex.marketdata.client.FeedState;
import io.chronex.api.Side;
import io.chronex.queues.book.Books;
import org.agrona.concurrent.IdleStrategy;

/** A feed client polled on a thread of its own; what the test waits on is published in volatile fields. */
final class ClientRunner implements AutoCloseable {
    private final FeedClient client;
    private final Thread thread;
    private volatile boolean stop;
    private volatile boolean synced;
    private volatile long lastEventsIndex = -1;
    private volatile long lastSeq;

    ClientRunner(final FeedClient client, final String name) {
        this.client = client;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        final IdleStrategy idle = client.idleStrategy();
        final FeedState state = client.state();
        while (!stop) {
            idle.idle(client.poll());
            synced = state.synced();
            lastEventsIndex = state.lastEventsIndex();
            lastSeq = state.lastSeq();
        }
    }

    boolean syncedAt(final long eventsIndex) {
        return synced && lastEventsIndex == eventsIndex;
    }

    long lastSeq() {
        return lastSeq;
    }

    FeedClient client() {
        return client;
    }

    /** Stops polling; the client's state may be read afterwards. */
    FeedClient stop() throws InterruptedException {
        stop = true;
        thread.join();
        return client;
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }

    /** The client's book of a symbol, in the form the tests compare (as {@link ExchangeWriter#book}). */
    static String book(final FeedState state, final int symbol) {
        final StringBuilder sb = new StringBuilder();
        final Books.Book book = state.books().book(symbol);
        for (final Side side : Side.values()) {
            final Books.Levels levels = book == null ? null : book.levels(side);
            for (int rank = 0; levels != null && rank < levels.size(); rank++) {
                sb.append(side).append(' ').append(levels.price(rank)).append('x').append(levels.quantity(rank)).append('/')
                    .append(levels.orders(rank)).append('\n');
            }
        }
        return sb.toString();
    }
}
