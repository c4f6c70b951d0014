package io.signalman.engine.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.signalman.json.Json;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/** Comparison, conversion and display of the values a constraint sees, with DRL's semantics. */
final class Values {

    private Values() {
    }

    /** DRL's {@code ==}: numbers compare by value whatever their type, everything else by equals. */
    static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return decimal(x).compareTo(decimal(y)) == 0;
        }
        if (a instanceof Character || b instanceof Character) {
            return Objects.equals(String.valueOf(a), String.valueOf(b));
        }
        return Objects.equals(a, b);
    }

    /** DRL's ordering: numbers by value, strings and other comparables by compareTo; null never compares. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Integer compare(Object a, Object b) throws Unevaluable {
        if (a == null || b == null) {
            return null;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return decimal(x).compareTo(decimal(y));
        }
        if (a instanceof Comparable ca && a.getClass().isInstance(b)) {
            return ca.compareTo(b);
        }
        throw new Unevaluable("cannot order " + show(a) + " against " + show(b));
    }

    static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.toString());
        }
        return new BigDecimal(n.toString());
    }

    static boolean truth(Object v, String what) throws Unevaluable {
        if (v instanceof Boolean b) {
            return b;
        }
        throw new Unevaluable(what + " is " + show(v) + ", not true or false");
    }

    /**
     * The arguments converted to a method's parameter types (a whole number given where a
     * decimal is expected, as Java widens it), or null when they do not fit.
     */
    static Object[] convert(Class<?>[] types, List<Object> args) {
        Object[] out = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Object a = args.get(i);
            Class<?> t = boxed(types[i]);
            if (a == null) {
                if (types[i].isPrimitive()) {
                    return null;
                }
            } else if (a instanceof Number n && Number.class.isAssignableFrom(t) && !t.isInstance(a)) {
                a = widen(n, t);
                if (a == null) {
                    return null;
                }
            } else if (!t.isInstance(a)) {
                return null;
            }
            out[i] = a;
        }
        return out;
    }

    private static Object widen(Number n, Class<?> t) {
        if (t == Double.class) {
            return n.doubleValue();
        } else if (t == Long.class && !(n instanceof Double || n instanceof Float)) {
            return n.longValue();
        } else if (t == Float.class) {
            return n.floatValue();
        } else if (t == BigDecimal.class) {
            return decimal(n);
        }
        return null;
    }

    private static Class<?> boxed(Class<?> t) {
        if (!t.isPrimitive()) {
            return t;
        }
        return switch (t.getName()) {
            case "int" -> Integer.class;
            case "long" -> Long.class;
            case "double" -> Double.class;
            case "boolean" -> Boolean.class;
            case "float" -> Float.class;
            case "char" -> Character.class;
            case "short" -> Short.class;
            default -> Byte.class;
        };
    }

    /** A value as an analyst reads it: JSON ({@code "high"}, {@code 0.7}, {@code ["a","b"]}). */
    static String show(Object v) {
        return Json.write(tree(v));
    }

    /** A value as JSON; a value Jackson cannot write shows as its text rather than failing explain. */
    static JsonNode tree(Object v) {
        try {
            return Json.tree(v);
        } catch (RuntimeException e) {
            return TextNode.valueOf(String.valueOf(v));
        }
    }
}
