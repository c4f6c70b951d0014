package io.signalman.rulelang;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class or interface as part of the rule language: its public instance methods are what
 * a rule may call on a fact of it (or on {@code decide}). A type without this mark publishes
 * nothing, whatever methods it has, so a new method on a platform class never becomes callable
 * from a rule by accident, and a pack whose facts are not marked fails to start (its vocabulary
 * would be empty: fail closed).
 *
 * <p>A method overriding one of an unmarked supertype ({@code Collector.reset()},
 * {@code Object.toString()}) stays unpublished: it belongs to the platform's contract, not to
 * the analysts'.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RuleVocabulary {
}
