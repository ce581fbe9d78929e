package io.chronex.monitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the alerts did: each alert from when it was first raised to when it cleared (or "now"), so one that lasted a single
 * interval still leaves a trace on the page and in {@code /api/state}. An alert is known by its kind (its leading words in
 * capitals: "BACKLOG AGE", "GATEWAY 2 GONE"), not its text, whose figures change from one interval to the next. The
 * monitor's thread updates it once an interval; the last {@link #KEPT} that have cleared are kept.
 */
public final class AlertHistory {
    /** Cleared alerts kept, newest first. */
    public static final int KEPT = 50;
    /** The words in capitals an alert starts with, a number among them only before another such word (GATEWAY 2 GONE). */
    private static final Pattern KIND = Pattern.compile("^[A-Z][A-Z-]*(?: (?:[A-Z][A-Z0-9-]*|\\d+(?= [A-Z])))*");

    /** One alert's span: its kind, its latest text, when it was raised and (0 while it lasts) when it cleared, epoch ms. */
    public record Entry(String kind, String text, long raisedMillis, long clearedMillis) {
        /** How long it lasted, or has lasted up to {@code nowMillis}. */
        public long lastedMillis(final long nowMillis) {
            return (clearedMillis == 0 ? nowMillis : clearedMillis) - raisedMillis;
        }
    }

    private final Map<String, Entry> active = new LinkedHashMap<>();
    private final Deque<Entry> cleared = new ArrayDeque<>();

    /** The kind an alert's text is known by. */
    static String kind(final String alert) {
        final Matcher m = KIND.matcher(alert);
        return m.find() && !m.group().isEmpty() ? m.group() : alert.replaceAll("\\d+(\\.\\d+)?", "N");
    }

    /** The alerts raised now: new kinds open, kinds no longer raised close. */
    public void update(final List<String> alerts, final long nowMillis) {
        final Map<String, String> now = new LinkedHashMap<>();
        for (final String alert : alerts) {
            now.putIfAbsent(kind(alert), alert);
        }
        for (final var it = active.entrySet().iterator(); it.hasNext(); ) {
            final Entry entry = it.next().getValue();
            if (!now.containsKey(entry.kind())) {
                it.remove();
                cleared.addFirst(new Entry(entry.kind(), entry.text(), entry.raisedMillis(), nowMillis));
                if (cleared.size() > KEPT) {
                    cleared.removeLast();
                }
            }
        }
        for (final Map.Entry<String, String> alert : now.entrySet()) {
            final Entry was = active.get(alert.getKey());
            active.put(alert.getKey(), new Entry(alert.getKey(), alert.getValue(), was == null ? nowMillis : was.raisedMillis(), 0));
        }
    }

    /** The alerts still raised (oldest first), then those that cleared (newest first). */
    public List<Entry> entries() {
        final List<Entry> all = new ArrayList<>(active.values());
        all.addAll(cleared);
        return all;
    }
}
