package io.signalman.rulelang;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a pack's rules may name: its fact classes (their fields and published tests), and the
 * decision API bound to the global {@code decide}. Everything else a rule could reach through
 * Java is outside the rule language.
 *
 * <p>A fact's fields are its record components and bean getters; its tests are its public
 * methods declared in Signalman's own code (never those of {@code Object} or {@code Record}, so
 * {@code getClass()} is never reachable). Values a field returns (text, numbers, lists) offer
 * only the read-only methods of {@link #valueMethods}.
 */
public final class Vocabulary {

    /** The global every pack's rules decide through. */
    public static final String GLOBAL = "decide";

    private static final Set<String> TEXT_METHODS = new TreeSet<>(Set.of("length", "isEmpty", "isBlank", "startsWith",
            "endsWith", "contains", "equals", "equalsIgnoreCase", "toLowerCase", "toUpperCase", "trim", "strip", "indexOf",
            "compareTo"));
    private static final Set<String> NUMBER_METHODS = new TreeSet<>(Set.of("intValue", "longValue", "doubleValue",
            "compareTo", "equals"));
    private static final Set<String> LIST_METHODS = new TreeSet<>(Set.of("size", "isEmpty", "contains", "containsAll",
            "get", "indexOf"));
    private static final Set<String> MAP_METHODS = new TreeSet<>(Set.of("size", "isEmpty", "containsKey", "get"));
    /** Read-only methods of values whose type the reader does not follow (JSON, results of those methods). */
    private static final Set<String> VALUE_METHODS;

    static {
        Set<String> all = new TreeSet<>(Set.of("has", "asText", "asInt", "asDouble", "asBoolean", "isNull", "textValue"));
        all.addAll(TEXT_METHODS);
        all.addAll(NUMBER_METHODS);
        all.addAll(LIST_METHODS);
        all.addAll(MAP_METHODS);
        VALUE_METHODS = all;
    }

    /** Declared by every record; never a fact's own test. */
    private static final Set<String> OBJECT_METHODS = Set.of("equals", "hashCode", "toString");

    private final Map<String, Class<?>> facts = new LinkedHashMap<>();
    private final Class<?> decideType;

    private Vocabulary(Class<?> decideType, List<Class<?>> facts) {
        this.decideType = decideType;
        facts.forEach(f -> this.facts.put(f.getName(), f));
    }

    /** A pack's vocabulary: the class of its {@code decide} global, then its fact classes. */
    public static Vocabulary of(Class<?> decideType, Class<?>... facts) {
        return new Vocabulary(decideType, List.of(facts));
    }

    public Class<?> decideType() {
        return decideType;
    }

    /** The fact named in a pattern or an import, by simple or full name. */
    public Optional<Class<?>> fact(String name) {
        Class<?> full = facts.get(name);
        if (full != null) {
            return Optional.of(full);
        }
        return facts.values().stream().filter(c -> c.getSimpleName().equals(name)).findFirst().map(c -> (Class<?>) c);
    }

    public boolean isFact(Class<?> type) {
        return type != null && facts.containsValue(type);
    }

    /** Simple names of the facts, as analysts write them. */
    public Set<String> factNames() {
        Set<String> names = new TreeSet<>();
        facts.values().forEach(c -> names.add(c.getSimpleName()));
        return names;
    }

    /** Full names of the classes a rule file may import: the facts and the decision API. */
    public Set<String> importable() {
        Set<String> names = new TreeSet<>(facts.keySet());
        names.add(decideType.getName());
        return names;
    }

    /** A fact's fields and their types: record components and bean getters, sorted by name. */
    public static Map<String, Class<?>> fields(Class<?> type) {
        Map<String, Class<?>> out = new TreeMap<>();
        if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                out.put(c.getName(), c.getType());
            }
        }
        for (Method m : published(type)) {
            if (m.getParameterCount() != 0) {
                continue;
            }
            String n = m.getName();
            if (n.startsWith("get") && n.length() > 3 && m.getReturnType() != void.class) {
                out.put(Character.toLowerCase(n.charAt(3)) + n.substring(4), m.getReturnType());
            } else if (n.startsWith("is") && n.length() > 2 && m.getReturnType() == boolean.class) {
                out.put(Character.toLowerCase(n.charAt(2)) + n.substring(3), boolean.class);
            }
        }
        return out;
    }

    /** A fact's tests (published methods with arguments, or no-argument ones that are not fields), by name. */
    public static Map<String, Method> tests(Class<?> type) {
        Map<String, Method> out = new TreeMap<>();
        for (Method m : published(type)) {
            out.putIfAbsent(m.getName(), m);
        }
        return out;
    }

    /** The decision API's methods by name (what {@code decide.} may be followed by). */
    public Map<String, Method> decisions() {
        Map<String, Method> out = new TreeMap<>();
        for (Method m : published(decideType)) {
            if (!m.getName().equals("reset") && (!out.containsKey(m.getName()) || m.isVarArgs())) {
                out.put(m.getName(), m); // of overloads, the one taking texts reads best
            }
        }
        return out;
    }

    /** The read-only methods a value that is not a fact offers (text, numbers, lists, maps). */
    static Set<String> valueMethods(Class<?> type) {
        String kind = describe(type);
        return switch (kind) {
            case "text" -> TEXT_METHODS;
            case "number" -> NUMBER_METHODS;
            case "list" -> LIST_METHODS;
            default -> java.util.Map.class.isAssignableFrom(type) ? MAP_METHODS : VALUE_METHODS;
        };
    }

    /** Every form of one decision method (a decision may take one value or two). */
    public List<Method> decisionForms(String name) {
        return published(decideType).stream().filter(m -> m.getName().equals(name)).toList();
    }

    /** The field a getter reads ({@code getTradingAgents} reads {@code tradingAgents}), or null. */
    static String fieldOf(Method m) {
        String n = m.getName();
        if (m.getParameterCount() == 0 && n.startsWith("get") && n.length() > 3) {
            return Character.toLowerCase(n.charAt(3)) + n.substring(4);
        }
        if (m.getParameterCount() == 0 && n.startsWith("is") && n.length() > 2) {
            return Character.toLowerCase(n.charAt(2)) + n.substring(3);
        }
        return null;
    }

    /** Public instance methods declared in Signalman's own classes and interfaces, but equals, hashCode, toString. */
    private static List<Method> published(Class<?> type) {
        return java.util.Arrays.stream(type.getMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge())
                .filter(m -> !OBJECT_METHODS.contains(m.getName()))
                .filter(m -> m.getDeclaringClass().getName().startsWith("io.signalman."))
                .toList();
    }

    /** How an analyst reads a Java type: text, number, yes/no, list. */
    static String describe(Class<?> type) {
        if (type == null) {
            return "value";
        }
        if (type == String.class || type == char.class || type == Character.class) {
            return "text";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "yes/no";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return "number";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "list";
        }
        return type.getSimpleName();
    }

    /** A method as an analyst reads it: {@code mayPublish(text)}. */
    static String signature(Method m) {
        StringBuilder s = new StringBuilder(m.getName()).append('(');
        Class<?>[] params = m.getParameterTypes();
        for (int i = 0; i < params.length; i++) {
            s.append(i == 0 ? "" : ", ").append(m.isVarArgs() && i == params.length - 1 ? "text, ..." : describe(params[i]));
        }
        return s.append(')').toString();
    }
}
