package io.chronex.monitor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks {@code promtool check metrics} makes (its linter's rules, as documented in client_golang's promlint), written
 * out for the tests: promtool is a Go binary this build cannot fetch. Returns one line per problem, empty when the text
 * is clean.
 */
final class PromLint {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? \\S+$");
    private static final Pattern LABEL_NAME = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern CAMEL = Pattern.compile("[a-z][A-Z]");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "summary", "histogram", "untyped");
    private static final Set<String> ABBREVIATIONS = Set.of("s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb", "m", "h",
        "d");
    private static final Map<String, String> UNITS = Map.ofEntries(Map.entry("seconds", "seconds"), Map.entry("bytes", "bytes"),
        Map.entry("meters", "meters"), Map.entry("grams", "grams"), Map.entry("volts", "volts"), Map.entry("minutes", "seconds"),
        Map.entry("hours", "seconds"), Map.entry("days", "seconds"), Map.entry("weeks", "seconds"), Map.entry("bits", "bytes"));
    private static final List<String> PREFIXES = List.of("pico", "nano", "micro", "milli", "centi", "deci", "deca", "hecto", "kilo",
        "kibi", "mega", "mibi", "giga", "gibi", "tera", "tebi", "peta", "pebi");

    private PromLint() {
    }

    static List<String> problems(final String text) {
        final List<String> problems = new ArrayList<>();
        final Map<String, String> types = new HashMap<>();
        final Map<String, String> helps = new HashMap<>();
        String family = null;
        for (final String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) {
                final String[] parts = line.split(" ", 4);
                helps.put(parts[2], parts.length > 3 ? parts[3] : "");
            } else if (line.startsWith("# TYPE ")) {
                final String[] parts = line.split(" ");
                family = parts[2];
                if (types.put(family, parts[3]) != null) {
                    problems.add(family + ": TYPE given twice");
                }
                if (!TYPES.contains(parts[3])) {
                    problems.add(family + ": unknown type " + parts[3]);
                }
                if (helps.getOrDefault(family, "").isBlank()) {
                    problems.add(family + ": no help text");
                }
                problems.addAll(nameProblems(family, parts[3]));
            } else if (!line.isEmpty()) {
                final Matcher m = SAMPLE.matcher(line);
                if (!m.matches()) {
                    problems.add("not a sample line: " + line);
                    continue;
                }
                final String type = types.get(family);
                final String name = m.group(1);
                final boolean ofFamily = name.equals(family) || ("summary".equals(type) || "histogram".equals(type))
                    && (name.equals(family + "_sum") || name.equals(family + "_count") || name.equals(family + "_bucket"));
                if (!ofFamily) {
                    problems.add(name + ": a sample outside its family's lines (after the TYPE of " + family + ")");
                }
                final Matcher labels = LABEL_NAME.matcher(m.group(2) == null ? "" : m.group(2));
                while (labels.find()) {
                    final String label = labels.group(1);
                    if ("quantile".equals(label) && !"summary".equals(type)) {
                        problems.add(family + ": non-summary metrics should not have \"quantile\" label");
                    }
                    if ("le".equals(label) && !"histogram".equals(type)) {
                        problems.add(family + ": non-histogram metrics should not have \"le\" label");
                    }
                    if (CAMEL.matcher(label).find()) {
                        problems.add(family + ": label names should be written in 'snake_case' not 'camelCase'");
                    }
                }
            }
        }
        return problems;
    }

    private static List<String> nameProblems(final String name, final String type) {
        final List<String> problems = new ArrayList<>();
        final boolean total = name.endsWith("_total");
        if ("counter".equals(type) && !total) {
            problems.add(name + ": counter metrics should have \"_total\" suffix");
        }
        if (!"counter".equals(type) && !"untyped".equals(type) && total) {
            problems.add(name + ": non-counter metrics should not have \"_total\" suffix");
        }
        if (!"histogram".equals(type) && name.endsWith("_bucket")) {
            problems.add(name + ": non-histogram metrics should not have \"_bucket\" suffix");
        }
        if (!"histogram".equals(type) && !"summary".equals(type) && (name.endsWith("_count") || name.endsWith("_sum"))) {
            problems.add(name + ": non-histogram and non-summary metrics should not have \"_count\" or \"_sum\" suffix");
        }
        for (final String t : List.of("counter", "gauge", "summary", "histogram")) {
            if (name.contains("_" + t + "_") || name.endsWith("_" + t)) {
                problems.add(name + ": metric name should not include type '" + t + "'");
            }
        }
        for (final String token : name.split("_")) {
            if (ABBREVIATIONS.contains(token)) {
                problems.add(name + ": metric names should not contain abbreviated units");
            }
            final String unit = unitOf(token);
            if (unit != null && !UNITS.get(unit).equals(token)) {
                problems.add(name + ": use base unit \"" + UNITS.get(unit) + "\" instead of \"" + token + "\"");
            }
        }
        if (CAMEL.matcher(name).find()) {
            problems.add(name + ": metric names should be written in 'snake_case' not 'camelCase'");
        }
        if (name.contains(":")) {
            problems.add(name + ": metric names should not contain ':'");
        }
        return problems;
    }

    /** The unit a name's token is (bare or with a prefix), or null. */
    private static String unitOf(final String token) {
        if (UNITS.containsKey(token)) {
            return token;
        }
        for (final String prefix : PREFIXES) {
            if (token.startsWith(prefix) && UNITS.containsKey(token.substring(prefix.length()))) {
                return token.substring(prefix.length());
            }
        }
        return null;
    }
}
