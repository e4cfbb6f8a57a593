import java.lang.reflect.Field;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local's own server (ServerRunner, the jar's Main-Class, takes the same arguments) on
 * loopback only, for tatami's local cloud (tatami/local/engines/dynamodb_local.py compiles and runs it).
 *
 * <p>The jar has no bind-address option: its Jetty server is built with `new Server(port)`, whose one
 * connector listens on every interface. Before the server starts, this sets that connector's host to
 * 127.0.0.1 (the field is private; the classes are on the class path, so reflection may open it).
 * It also answers 403 to what a web page could send: a Host other than this server's loopback names
 * (DNS rebinding) and any request carrying an Origin header (the SDKs never send one; DynamoDB Local
 * allows every origin through CORS by default).
 */
public final class LoopbackDynamoDBLocal {
    static final String LOOPBACK = "127.0.0.1";

    private LoopbackDynamoDBLocal() {}

    public static void main(String[] args) throws Exception {
        DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
        Field field = DynamoDBProxyServer.class.getDeclaredField("server");
        field.setAccessible(true);
        Server server = (Server) field.get(proxy);
        Connector[] connectors = server.getConnectors();
        if (connectors.length == 0) {
            throw new IllegalStateException("DynamoDB Local's server has no connector to bind to loopback");
        }
        int port = -1;
        for (Connector connector : connectors) {
            if (!(connector instanceof ServerConnector bound)) {
                throw new IllegalStateException("cannot bind " + connector + " to loopback");
            }
            bound.setHost(LOOPBACK);
            port = bound.getPort();
        }
        server.setHandler(new LoopbackOnly(server.getHandler(), port));
        server.start(); // as DynamoDBProxyServer.start, less its telemetry (tatami disables it)
        System.out.println("tatami: DynamoDB Local listens on " + LOOPBACK + ":" + port + " only");
        server.join();
    }

    /** Answers 403 to a foreign Host or to a request a web page made (it carries an Origin). */
    static final class LoopbackOnly extends Handler.Wrapper {
        private final Set<String> hosts;

        LoopbackOnly(Handler handler, int port) {
            super(handler);
            hosts = Set.of(LOOPBACK + ":" + port, "localhost:" + port, "[::1]:" + port);
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String host = request.getHeaders().get(HttpHeader.HOST);
            String origin = request.getHeaders().get(HttpHeader.ORIGIN);
            if (host == null || !hosts.contains(host.toLowerCase(Locale.ROOT))) {
                Response.writeError(request, response, callback, 403, "Host " + host + " is not this server's");
                return true;
            }
            if (origin != null) {
                Response.writeError(request, response, callback, 403, "requests from web pages are refused");
                return true;
            }
            return super.handle(request, response, callback);
        }
    }
}
