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
 * <p>Allowed by type, never by name: a fact's fields are its record components and bean getters,
 * and its tests are its public methods declared in a type marked {@link RuleVocabulary} (never
 * those of {@code Object}, {@code Record} or an unmarked interface such as {@code Collector}, so
 * {@code getClass()} and {@code reset()} are never reachable). A value a field returns (text, a
 * number, a list, a map) offers only the read-only methods {@link #valueMethods} lists for its
 * own type, each of which that type really declares; a value whose type the checker cannot
 * tell offers nothing.
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

    private final Map<String, Class<?>> facts = new LinkedHashMap<>();
    private final Class<?> decideType;

    private Vocabulary(Class<?> decideType, List<Class<?>> facts) {
        this.decideType = marked(decideType);
        facts.forEach(f -> this.facts.put(f.getName(), marked(f)));
    }

    /**
     * A pack's vocabulary: the class of its {@code decide} global, then its fact classes, each
     * marked {@link RuleVocabulary}; an unmarked one is refused here, when the pack is made.
     */
    public static Vocabulary of(Class<?> decideType, Class<?>... facts) {
        return new Vocabulary(decideType, List.of(facts));
    }

    private static Class<?> marked(Class<?> type) {
        if (!type.isAnnotationPresent(RuleVocabulary.class)) {
            throw new IllegalArgumentException(type.getName() + " is not marked @RuleVocabulary: rules could call nothing "
                    + "on it; mark it, and review which of its public methods that publishes");
        }
        return type;
    }

    /** Every class whose code a rule of this pack may reach: its facts, the decision API, and their marked supertypes. */
    public Set<Class<?>> classes() {
        Set<Class<?>> out = new java.util.LinkedHashSet<>();
        java.util.Deque<Class<?>> todo = new java.util.ArrayDeque<>(facts.values());
        todo.add(decideType);
        while (!todo.isEmpty()) {
            Class<?> c = todo.pop();
            if (c.getName().startsWith("io.signalman.") && out.add(c)) {
                if (c.getSuperclass() != null) {
                    todo.add(c.getSuperclass());
                }
                todo.addAll(List.of(c.getInterfaces()));
                for (Method m : published(c)) {
                    todo.add(m.getReturnType());
                    todo.addAll(List.of(m.getParameterTypes()));
                }
            }
        }
        return out;
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
            if (!out.containsKey(m.getName()) || m.isVarArgs()) {
                out.put(m.getName(), m); // of overloads, the one taking texts reads best
            }
        }
        return out;
    }

    /**
     * The read-only methods a value that is not a fact offers, by its type: text, numbers, lists
     * and maps; of those, only the ones {@code type} itself has. Empty for any other type
     * (a value the checker cannot classify offers nothing).
     */
    static Set<String> valueMethods(Class<?> type) {
        Set<String> listed;
        if (type == String.class) {
            listed = TEXT_METHODS;
        } else if (type != null && !type.isPrimitive() && Number.class.isAssignableFrom(type)) {
            listed = NUMBER_METHODS;
        } else if (type != null && java.util.List.class.isAssignableFrom(type)) {
            listed = LIST_METHODS;
        } else if (type != null && java.util.Map.class.isAssignableFrom(type)) {
            listed = MAP_METHODS;
        } else {
            return Set.of();
        }
        Set<String> out = new TreeSet<>();
        for (Method m : type.getMethods()) {
            if (listed.contains(m.getName()) && !Modifier.isStatic(m.getModifiers())) {
                out.add(m.getName());
            }
        }
        return out;
    }

    /** The type {@code method} returns when called on a value of {@code type}, or null when it has none of that name. */
    static Class<?> valueMethodType(Class<?> type, String method) {
        if (!valueMethods(type).contains(method)) {
            return null;
        }
        Class<?> result = null;
        for (Method m : type.getMethods()) {
            if (m.getName().equals(method) && !Modifier.isStatic(m.getModifiers())) {
                Class<?> r = m.getReturnType();
                result = result == null || result == r ? r : Object.class; // overloads that disagree: a value
            }
        }
        return result;
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

    /**
     * Public instance methods declared in a type marked {@link RuleVocabulary}, except those that
     * override a method of an unmarked supertype (equals, hashCode, toString, Collector.reset).
     */
    private static List<Method> published(Class<?> type) {
        return java.util.Arrays.stream(type.getMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge())
                .filter(m -> m.getDeclaringClass().isAnnotationPresent(RuleVocabulary.class))
                .filter(m -> !overridesUnmarked(type, m))
                .toList();
    }

    private static boolean overridesUnmarked(Class<?> type, Method m) {
        java.util.Deque<Class<?>> todo = new java.util.ArrayDeque<>(List.of(Object.class));
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            todo.add(c);
            todo.addAll(List.of(c.getInterfaces()));
        }
        Set<Class<?>> seen = new java.util.HashSet<>();
        while (!todo.isEmpty()) {
            Class<?> c = todo.pop();
            if (!seen.add(c)) {
                continue;
            }
            todo.addAll(List.of(c.getInterfaces()));
            if (!c.isAnnotationPresent(RuleVocabulary.class)) {
                try {
                    c.getDeclaredMethod(m.getName(), m.getParameterTypes());
                    return true;
                } catch (NoSuchMethodException e) {
                    // not declared there
                }
            }
        }
        return false;
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
