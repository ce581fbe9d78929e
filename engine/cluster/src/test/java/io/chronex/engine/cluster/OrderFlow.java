package io.chronex.engine.cluster;

import io.chronex.testing.Await;
import quickfix.field.ExecType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A QuickFIX/J client's steady order flow for the cluster's failure tests: ord-1, ord-2, ... one every {@code paceMillis},
 * resting buys of one lot (90.00 .. 98.99) that never cross, so that each order's only answer is its New; and the checks
 * on what the client got: one New per order, nothing else, no ExecID twice.
 */
final class OrderFlow {
    private final FixClient client;
    private final AtomicInteger sent = new AtomicInteger();
    private volatile boolean running = true;
    private final Thread thread;

    OrderFlow(final FixClient client, final long paceMillis) {
        this.client = client;
        thread = new Thread(() -> {
            while (running) {
                final int i = sent.get() + 1;
                client.sendLimit("ord-" + i, quickfix.field.Side.BUY, String.format("%d.%02d", 90 + i % 9, i % 100));
                sent.set(i);
                try {
                    TimeUnit.MILLISECONDS.sleep(paceMillis);
                } catch (final InterruptedException e) {
                    return;
                }
            }
        }, "order-sender");
        thread.start();
    }

    int sent() {
        return sent.get();
    }

    /** Waits until at least {@code count} orders are sent; returns count. */
    int awaitSent(final int count) throws Exception {
        Await.until(count + " orders sent", 60, () -> sent.get() >= count);
        return count;
    }

    /** Stops sending; returns how many orders were sent. */
    int stop() throws InterruptedException {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(10));
        return sent.get();
    }

    /** Waits (up to 120 s) until orders ord-1 .. ord-{@code through} each have their New. */
    void awaitReports(final int through) throws Exception {
        Await.until("an ExecutionReport New for each of ord-1 .. ord-" + through + "; client events " + client.events, 120, () -> {
            final Map<String, Integer> news = client.countByClOrdId(ExecType.NEW);
            for (int i = 1; i <= through; i++) {
                if (!news.containsKey("ord-" + i)) {
                    return false;
                }
            }
            return true;
        });
    }

    /** The ClOrdIDs the client was told were accepted (an ExecutionReport New), in the order told. */
    List<String> acknowledged() {
        final List<String> news = new ArrayList<>();
        for (final FixClient.Report r : client.reports()) {
            if (r.execType() == ExecType.NEW) {
                news.add(r.clOrdId());
            }
        }
        return news;
    }

    /** Exactly one report per order of ord-1 .. ord-{@code total}, a New, and no ExecID twice. */
    void checkReports(final int total) {
        final List<FixClient.Report> reports = client.reports();
        final List<String> wrong = new ArrayList<>();
        for (final FixClient.Report r : reports) {
            if (r.execType() != ExecType.NEW) {
                wrong.add(r.toString());
            }
        }
        assertEquals(List.of(), wrong, "reports other than New (no order crosses)");
        final Map<String, Integer> news = client.countByClOrdId(ExecType.NEW);
        for (int i = 1; i <= total; i++) {
            assertEquals(1, news.getOrDefault("ord-" + i, 0), "reports New for ord-" + i);
        }
        assertEquals(total, reports.size(), "one report per order, no more");
        assertEquals(List.of(), client.repeatedExecIds(), "ExecIDs delivered twice");
    }
}
