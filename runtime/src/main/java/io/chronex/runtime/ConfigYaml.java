package io.chronex.runtime;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strict reading of one YAML configuration file, shared by every process's config loader: every
 * mistake becomes a {@link ConfigException} "file:line: reason", and unknown or repeated keys are
 * errors rather than silently ignored.
 */
public final class ConfigYaml {
    /** A configuration mistake, with the file and line it is on. */
    public static final class ConfigException extends Exception {
        private static final long serialVersionUID = 1L;

        public ConfigException(final String message) {
            super(message);
        }
    }

    private final Path file;

    public ConfigYaml(final Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** The document's root node; an empty file is an error naming what it needs. */
    public Node root(final String needs) throws ConfigException {
        final Node root;
        try (Reader reader = Files.newBufferedReader(file)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).compose(reader);
        } catch (final MarkedYAMLException e) {
            throw new ConfigException(file + ":" + (e.getProblemMark().getLine() + 1) + ": not valid YAML: " + e.getProblem());
        } catch (final IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
        if (root == null) {
            throw new ConfigException(file + ":1: empty configuration; it needs " + needs);
        }
        return root;
    }

    public Map<String, Node> mapping(final Node node, final Set<String> allowed) throws ConfigException {
        if (!(node instanceof MappingNode mapping)) {
            throw error(node, "expected a mapping of " + allowed);
        }
        final Map<String, Node> values = new LinkedHashMap<>();
        for (final NodeTuple tuple : mapping.getValue()) {
            final String key = scalar(tuple.getKeyNode());
            if (!allowed.contains(key)) {
                throw error(tuple.getKeyNode(), "unknown key '" + key + "'; expected one of " + allowed);
            }
            if (values.put(key, tuple.getValueNode()) != null) {
                throw error(tuple.getKeyNode(), "'" + key + "' is given twice");
            }
        }
        return values;
    }

    public List<Node> sequence(final Node node) throws ConfigException {
        if (!(node instanceof SequenceNode sequence)) {
            throw error(node, "expected a list");
        }
        return sequence.getValue();
    }

    public String scalar(final Node node) throws ConfigException {
        if (!(node instanceof ScalarNode scalar)) {
            throw error(node, "expected a single value");
        }
        return scalar.getValue();
    }

    public boolean bool(final Node node) throws ConfigException {
        final String value = scalar(node);
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        throw error(node, "expected true or false, found '" + value + "'");
    }

    public long number(final Node node, final String key) throws ConfigException {
        final String value = scalar(node).replace("_", "");
        try {
            return Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw error(node, key + " must be a whole number (prices and quantities are ticks and lots), found '" + scalar(node) + "'");
        }
    }

    public long required(final Node owner, final Map<String, Node> m, final String key) throws ConfigException {
        if (!m.containsKey(key)) {
            throw error(owner, "'" + key + "' is missing");
        }
        return number(m.get(key), key);
    }

    public long optional(final Map<String, Node> m, final String key, final long fallback) throws ConfigException {
        return m.containsKey(key) ? number(m.get(key), key) : fallback;
    }

    /** {@link #optional(Map, String, long)}, refused with file:line unless within min..max. */
    public long bounded(final Map<String, Node> m, final String key, final long fallback, final long min, final long max)
        throws ConfigException {
        final long value = optional(m, key, fallback);
        if (value < min || value > max) {
            throw error(m.get(key), key + " must be " + min + ".." + max + ", found " + value);
        }
        return value;
    }

    public String optionalString(final Map<String, Node> m, final String key, final String fallback) throws ConfigException {
        return m.containsKey(key) ? scalar(m.get(key)) : fallback;
    }

    public ConfigException error(final Node node, final String reason) {
        return new ConfigException(file + ":" + (node.getStartMark().getLine() + 1) + ": " + reason);
    }
}
