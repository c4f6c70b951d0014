package io.signalman.engine;

import java.util.Map;

/**
 * Defines the classes of a unit, just compiled or read back from the {@link UnitStore}, itself
 * first, and asks its parent, the {@link RuleClassLoader}, for everything else: so every rule
 * class links to exactly what the rule language allows, whoever wrote its bytes. (Drools' own
 * loader for a built module has the application's loader for parent; its classes are not used.)
 */
final class StoredUnitLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final Map<String, byte[]> classes;

    StoredUnitLoader(RuleClassLoader parent, Map<String, byte[]> classes) {
        super(parent);
        this.classes = Map.copyOf(classes);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = classes.get(name);
                c = bytes != null ? defineClass(name, bytes, 0, bytes.length) : getParent().loadClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
