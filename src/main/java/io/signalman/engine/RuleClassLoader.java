package io.signalman.engine;

import io.signalman.rulelang.Vocabulary;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The parent of the class loader Drools defines a pack's generated rule classes in: the third
 * line behind the rule checker and the generated-Java check. Compiled rule code can link only to
 * what a rule may use: the pack's vocabulary, a few {@code java.lang} and {@code java.util}
 * basics, dates and numbers, RE2/J, and the parts of Drools' runtime that generated code calls.
 * Anything else ({@code java.nio.file}, {@code java.lang.reflect}, {@code System},
 * {@code Runtime}, {@code Thread}, Java's backtracking regex, the rest of Signalman) is not found:
 * the Java compiler cannot resolve it (it reads class files through this loader) and, were it
 * compiled elsewhere, it would fail to link instead of running (every unit's classes, just
 * compiled or read back from the store, are defined by a {@link StoredUnitLoader} whose parent
 * this is).
 *
 * <p>NOTE: an allow-list of names, not of packages, where a package holds something a rule must
 * never reach ({@code java.lang} has {@code Runtime}; {@code java.util} has {@code Scanner} and
 * {@code ServiceLoader}). Drools' build also asks this loader for speculative names while it
 * resolves identifiers ({@code java.lang.$m}); those are simply not found, as on any loader.
 */
final class RuleClassLoader extends ClassLoader {

    /** Classes of java.lang that generated code and the JVM's linking of it need. */
    private static final Set<String> JAVA_LANG = Set.of("Object", "String", "CharSequence", "Comparable", "Iterable",
            "Number", "Integer", "Long", "Double", "Float", "Short", "Byte", "Boolean", "Character", "Enum", "Record",
            "Throwable", "Exception", "RuntimeException", "Error", "IllegalArgumentException", "IllegalStateException",
            "NullPointerException", "ClassCastException", "UnsupportedOperationException", "ArithmeticException",
            "IndexOutOfBoundsException", "Override", "Deprecated", "FunctionalInterface", "SuppressWarnings",
            "StringBuilder", "Void", "Cloneable", "AutoCloseable");

    /** Classes of java.util a rule's values and Drools' generated code use; no I/O, services or threads. */
    private static final Set<String> JAVA_UTIL = Set.of("List", "ArrayList", "LinkedList", "Arrays", "Collections",
            "Collection", "Map", "HashMap", "LinkedHashMap", "TreeMap", "Set", "HashSet", "LinkedHashSet", "TreeSet",
            "Iterator", "ListIterator", "Optional", "Objects", "Locale", "Date", "Calendar", "GregorianCalendar",
            "Comparator", "AbstractList", "AbstractCollection", "RandomAccess", "NoSuchElementException");

    /** Prefixes whose every class a rule's code may use: numbers, dates, RE2/J, Drools' model runtime. */
    private static final List<String> PREFIXES = List.of("java.util.function.", "java.math.", "java.time.",
            "com.google.re2j.", "org.drools.model.", "org.drools.modelcompiler.dsl.", "org.drools.modelcompiler.util.",
            "org.drools.core.base.accumulators.", "org.kie.api.definition.");

    /** Single classes of Drools the build or generated code asks for by name. */
    private static final Set<String> DROOLS = Set.of("org.drools.modelcompiler.CanonicalKieModuleModel",
            "org.drools.util.DateUtils", "org.drools.compiler.kie.builder.MaterializedLambda",
            "org.drools.ecj.EclipseJavaCompiler", "org.kie.api.builder.ReleaseId");

    /**
     * What the JVM's own reflection links to when it turns a much-called constructor or method of a
     * rule class into bytecode (after fifteen calls on Java 17): the accessor it generates is
     * defined by a loader whose parent is the rule class's own, so these names reach this loader.
     * Rule code cannot use them: {@code jdk.internal.reflect} is not exported to it, and the
     * compiler cannot read their class files (see {@link #UNREADABLE}).
     */
    private static final Set<String> REFLECTION_ACCESSORS = Set.of("jdk.internal.reflect.MagicAccessorImpl",
            "jdk.internal.reflect.ConstructorAccessorImpl", "jdk.internal.reflect.MethodAccessorImpl",
            "jdk.internal.reflect.SerializationConstructorAccessorImpl", "java.lang.reflect.InvocationTargetException");

    /** The JDK's packages whose class files the Java compiler may not read (so it cannot compile a call into them). */
    private static final List<String> UNREADABLE = List.of("java/io/File", "java/io/Random", "java/io/Print",
            "java/nio/", "java/net/", "java/lang/reflect/", "java/lang/System.", "java/lang/Runtime.",
            "java/lang/Process", "java/lang/Thread", "java/lang/ClassLoader.", "java/lang/Module", "java/lang/StackWalker",
            "java/lang/SecurityManager", "java/lang/instrument/", "java/lang/management/", "java/util/concurrent/",
            "java/util/ServiceLoader", "java/util/Scanner", "java/util/regex/", "java/util/zip/", "java/util/jar/", "java/util/logging/",
            "java/util/prefs/", "javax/", "jdk/", "sun/", "com/sun/");

    /**
     * Where the parent found each class file the Java compiler asked for, or that it found none:
     * the compiler reads the same few hundred class files (Drools' model, the JDK, the vocabulary)
     * and asks after as many names that are no class at all, for every unit it compiles, and each
     * question the parent answers by looking through every jar of the class path (a tenth of a
     * whole-file reload's time before this was kept). The class path does not change while the
     * process runs, so the answers hold. Bounded: names come from rule text, so past
     * {@link #CLASS_FILES_KEPT} the answers are looked up each time instead of kept.
     */
    private static final Map<Lookup, Optional<URL>> CLASS_FILES = new ConcurrentHashMap<>();
    private static final int CLASS_FILES_KEPT = 20_000;

    private record Lookup(ClassLoader parent, String resource) {
    }

    private final Set<String> vocabulary;
    /** The DRL packages of the unit: its generated classes live there and below. */
    private final List<String> generated;

    RuleClassLoader(ClassLoader platform, Vocabulary vocabulary, Set<String> drlPackages) {
        super(platform);
        this.vocabulary = vocabulary.classes().stream().map(Class::getName).collect(Collectors.toUnmodifiableSet());
        this.generated = drlPackages.stream().filter(p -> !p.isEmpty()).map(p -> p + ".").toList();
    }

    /** Whether compiled rule code may link to the class named {@code name}. */
    boolean allows(String name) {
        if (name.startsWith("java.lang.") && name.indexOf('.', 10) < 0) {
            return JAVA_LANG.contains(name.substring(10));
        }
        if (name.startsWith("java.util.") && name.indexOf('.', 10) < 0) {
            return JAVA_UTIL.contains(name.substring(10));
        }
        if (vocabulary.contains(name) || DROOLS.contains(name) || REFLECTION_ACCESSORS.contains(name)
                || generated.stream().anyMatch(name::startsWith)) {
            return true;
        }
        return PREFIXES.stream().anyMatch(name::startsWith);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!allows(name)) {
            throw new ClassNotFoundException(name + " is outside the rule language");
        }
        return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
        if (!readable(name)) {
            return null;
        }
        if (!name.endsWith(".class")) {
            return super.getResource(name);
        }
        Optional<URL> known = CLASS_FILES.get(new Lookup(getParent(), name));
        if (known != null) {
            return known.orElse(null);
        }
        URL found = super.getResource(name);
        if (CLASS_FILES.size() < CLASS_FILES_KEPT) {
            CLASS_FILES.put(new Lookup(getParent(), name), Optional.ofNullable(found));
        }
        return found;
    }

    @Override
    public InputStream getResourceAsStream(String name) {
        return readable(name) ? super.getResourceAsStream(name) : null;
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return readable(name) ? super.getResources(name) : Collections.emptyEnumeration();
    }

    /**
     * Class files the compiler may read: the JDK's but the dangerous packages (it needs many to
     * type-check, such as {@code java/io/Serializable}), Signalman's only for the vocabulary.
     * Other resources (Drools' configuration) are read as usual.
     */
    private boolean readable(String resource) {
        if (!resource.endsWith(".class")) {
            return true;
        }
        if (UNREADABLE.stream().anyMatch(resource::startsWith)) {
            return false;
        }
        String name = resource.substring(0, resource.length() - 6).replace('/', '.');
        return !name.startsWith("io.signalman.") || vocabulary.contains(name);
    }
}
