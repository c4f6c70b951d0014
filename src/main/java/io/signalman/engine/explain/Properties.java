package io.signalman.engine.explain;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a fact's property ({@code priority} is {@code priority()}, {@code getPriority()} or
 * {@code isPriority()}, as Drools resolves it) and calls its methods by name. Facts are the packs'
 * public records, so plain reflection on public members is enough.
 *
 * <p>NOTE(perf): explain is asked for one decision at a time; lookups are cached per class (a
 * {@link ClassValue}) and name, so a rule pack explained again does not search the methods
 * again, nor copy a class's method array for every call it evaluates.
 */
final class Properties {

    /** Per class: each property name's getter (NONE when it has none). */
    private static final ClassValue<Map<String, Method>> GETTERS = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };
    /** Per class: its public methods by name, reachable through a public type. */
    private static final ClassValue<Map<String, List<Method>>> METHODS = new ClassValue<>() {
        @Override
        protected Map<String, List<Method>> computeValue(Class<?> type) {
            Map<String, List<Method>> byName = new java.util.HashMap<>();
            for (Method m : type.getMethods()) {
                byName.computeIfAbsent(m.getName(), k -> new ArrayList<>()).add(reachable(m));
            }
            byName.replaceAll((k, v) -> List.copyOf(v));
            return Map.copyOf(byName);
        }
    };
    private static final Method NONE;

    static {
        try {
            NONE = Object.class.getMethod("hashCode");
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Properties() {
    }

    static Object read(Object target, String name) throws Unevaluable {
        if (target == null) {
            throw new Unevaluable("\"" + name + "\" is read from a null value");
        }
        Class<?> type = target.getClass();
        Method m = GETTERS.get(type).computeIfAbsent(name, k -> find(type, name));
        if (m == NONE) {
            throw new Unevaluable(type.getSimpleName() + " has no field \"" + name + "\"");
        }
        return invoke(m, target, new Object[0]);
    }

    private static Method find(Class<?> type, String name) {
        String cap = name.isEmpty() ? name : Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String candidate : new String[] {name, "get" + cap, "is" + cap}) {
            for (Method m : type.getMethods()) {
                if (m.getName().equals(candidate) && m.getParameterCount() == 0 && m.getReturnType() != void.class) {
                    return reachable(m);
                }
            }
        }
        return NONE;
    }

    /** Calls {@code target.name(args)}, picking the public method whose parameters take the arguments. */
    static Object call(Object target, String name, List<Object> args) throws Unevaluable {
        if (target == null) {
            throw new Unevaluable(name + "(...) is called on a null value");
        }
        for (Method m : METHODS.get(target.getClass()).getOrDefault(name, List.of())) {
            if (m.getParameterCount() != args.size()) {
                continue;
            }
            Object[] converted = Values.convert(m.getParameterTypes(), args);
            if (converted != null) {
                return invoke(m, target, converted);
            }
        }
        throw new Unevaluable(target.getClass().getSimpleName() + " has no " + name + "(...) taking " + args.size()
                + " value(s) of these types");
    }

    private static Object invoke(Method m, Object target, Object[] args) throws Unevaluable {
        try {
            return m.invoke(target, args);
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new Unevaluable(m.getName() + " failed: " + cause);
        }
    }

    /**
     * The same method declared by a public type: {@code List.of(...)}'s class is private to the
     * JDK, so {@code size()} must be called through {@code List}.
     */
    private static Method reachable(Method m) {
        if (Modifier.isPublic(m.getDeclaringClass().getModifiers())) {
            return m;
        }
        for (Class<?> c = m.getDeclaringClass(); c != null; c = c.getSuperclass()) {
            Method found = onPublic(c, m);
            if (found != null) {
                return found;
            }
        }
        return m;
    }

    private static Method onPublic(Class<?> c, Method m) {
        if (Modifier.isPublic(c.getModifiers())) {
            try {
                return c.getMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
        for (Class<?> i : c.getInterfaces()) {
            Method found = onPublic(i, m);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
