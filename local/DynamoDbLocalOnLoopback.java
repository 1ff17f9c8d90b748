import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local as its own ServerRunner builds it, its Jetty connector bound to the address given
 * first instead of every interface: DynamoDB Local has no option for it, and asks for no
 * credentials (local/dynamodb-local.ts). Run by Java's source launcher, so nothing is compiled
 * ahead.
 */
public class DynamoDbLocalOnLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    Field jetty = DynamoDBProxyServer.class.getDeclaredField("server");
    jetty.setAccessible(true);
    for (Connector connector : ((Server) jetty.get(proxy)).getConnectors()) ((ServerConnector) connector).setHost(args[0]);
    proxy.start();
  }
}
