package io.signalman.rulelang;

import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One call of the decision API in a consequence ({@code decide.route($said, "billing")}), with
 * its arguments as parsed. A local variable an argument names is replaced by the expression it
 * was declared with, so {@code String target = "billing"; decide.route($said, target);} reads as
 * the literal.
 *
 * @param line the 1-based line of the call's name in the file
 */
public record DecideCall(String method, List<Expression> arguments, int line, int column) {

    public DecideCall {
        arguments = List.copyOf(arguments);
    }

    /** The argument at {@code i} when it is a text literal. */
    public Optional<String> text(int i) {
        return i < arguments.size() && arguments.get(i) instanceof StringLiteralExpr s
                ? Optional.of(s.asString()) : Optional.empty();
    }

    /** Every text literal among the arguments, in order. */
    public List<String> texts() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            text(i).ifPresent(out::add);
        }
        return out;
    }
}
