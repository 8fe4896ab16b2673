// An omniORB program that pulls from an event channel, or that the
// channel pulls from: the peer of rtorb-events' tests of the pull model.
//
//   pull_client consume CHANNEL COUNT   pulls COUNT events, printing each
//   pull_client supply CHANNEL TEXT...  gives each TEXT as one event, then
//                                       none, until it is disconnected
//
// It is compiled by the tests against the stubs omniidl makes of the
// crate's own IDL (idl/CosEventComm.idl, idl/CosEventChannelAdmin.idl).

#include <cstdlib>
#include <cstring>
#include <iostream>

#include <omniORB4/CORBA.h>

#include "CosEventChannelAdmin.hh"

static CORBA::ORB_var orb;

// Gives its texts one by one to try_pull (and to pull while it has any).
class TextSupplier : public POA_CosEventComm::PullSupplier {
public:
  TextSupplier(char** texts, int count) : texts_(texts), count_(count), next_(0) {}

  CORBA::Any* pull() {
    CORBA::Boolean has_event = 0;
    CORBA::Any* event = try_pull(has_event);
    if (!has_event) {
      delete event;
      throw CosEventComm::Disconnected();
    }
    return event;
  }

  CORBA::Any* try_pull(CORBA::Boolean& has_event) {
    omni_mutex_lock hold(mutex_);
    CORBA::Any* event = new CORBA::Any;
    has_event = next_ < count_;
    if (has_event) {
      *event <<= (const char*)texts_[next_++];
    }
    return event;
  }

  void disconnect_pull_supplier() {
    std::cout << "disconnected" << std::endl;
    orb->shutdown(0);
  }

private:
  char** texts_;
  int count_;
  int next_;
  omni_mutex mutex_;
};

static int consume(CosEventChannelAdmin::EventChannel_ptr channel, int count) {
  CosEventChannelAdmin::ConsumerAdmin_var admin = channel->for_consumers();
  CosEventChannelAdmin::ProxyPullSupplier_var proxy = admin->obtain_pull_supplier();
  proxy->connect_pull_consumer(CosEventComm::PullConsumer::_nil());
  std::cout << "connected" << std::endl;
  for (int i = 0; i < count; ++i) {
    CORBA::Any_var event = proxy->pull();
    const char* text = 0;
    if (event.in() >>= text) {
      std::cout << "event: " << text << std::endl;
    } else {
      std::cout << "event: not a string" << std::endl;
    }
  }
  proxy->disconnect_pull_supplier();
  return 0;
}

static int supply(CosEventChannelAdmin::EventChannel_ptr channel, char** texts, int count) {
  CORBA::Object_var root = orb->resolve_initial_references("RootPOA");
  PortableServer::POA_var poa = PortableServer::POA::_narrow(root);
  PortableServer::POAManager_var manager = poa->the_POAManager();
  manager->activate();
  TextSupplier* servant = new TextSupplier(texts, count);
  PortableServer::ObjectId_var id = poa->activate_object(servant);
  CORBA::Object_var object = poa->id_to_reference(id.in());
  CosEventComm::PullSupplier_var supplier = CosEventComm::PullSupplier::_narrow(object);
  CosEventChannelAdmin::SupplierAdmin_var admin = channel->for_suppliers();
  CosEventChannelAdmin::ProxyPullConsumer_var proxy = admin->obtain_pull_consumer();
  proxy->connect_pull_supplier(supplier.in());
  std::cout << "connected" << std::endl;
  orb->run();
  return 0;
}

int main(int argc, char** argv) {
  orb = CORBA::ORB_init(argc, argv);
  if (argc < 4) {
    std::cerr << "usage: pull_client consume CHANNEL COUNT | supply CHANNEL TEXT..." << std::endl;
    return 2;
  }
  int status = 1;
  try {
    CORBA::Object_var object = orb->string_to_object(argv[2]);
    CosEventChannelAdmin::EventChannel_var channel =
        CosEventChannelAdmin::EventChannel::_narrow(object);
    if (CORBA::is_nil(channel)) {
      std::cerr << "not an event channel: " << argv[2] << std::endl;
      return 1;
    }
    if (std::strcmp(argv[1], "consume") == 0) {
      status = consume(channel.in(), std::atoi(argv[3]));
    } else if (std::strcmp(argv[1], "supply") == 0) {
      status = supply(channel.in(), argv + 3, argc - 3);
    } else {
      std::cerr << "no such mode: " << argv[1] << std::endl;
      return 2;
    }
    orb->destroy();
  } catch (CORBA::SystemException& e) {
    const char* minor = e.NP_minorString();
    std::cerr << "failed: " << e._name() << " (" << (minor ? minor : "?") << ")" << std::endl;
  } catch (CORBA::Exception& e) {
    std::cerr << "failed: " << e._name() << std::endl;
  }
  return status;
}
